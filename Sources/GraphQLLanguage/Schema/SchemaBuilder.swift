/// Builds a ``Schema`` from type-system definitions, following graphql-js's `buildASTSchema`.
///
/// The steps: collect the definitions of every document; check them as SDL (see `SDLValidator`);
/// create one named type per name (built-in scalars first, then the introspection types, then the
/// documents' types in order); fill in fields, members and values from each definition and its
/// extensions, resolving every type name to an index; add the directives and root types; derive
/// the subtype tables; check the result as graphql-js's `validateSchema` does.
struct SchemaBuilder {
    /// A definition and the index of the document it came from (-1 for built-in definitions).
    struct Located<Node> {
        var node: Node
        var document: Int
    }

    let documents: [Document]
    let lenient: Bool
    /// Whether to add graphql-js's specified directives the documents do not define (SDL does,
    /// introspection results do not).
    var addsSpecifiedDirectives = true
    var locator: SourceLocator
    var diagnostics: [Diagnostic] = []
    /// Set when a problem leaves no usable schema, even in lenient mode.
    var hasFatalError = false

    var typeDefinitions: [Located<TypeDefinition>] = []
    var typeExtensions: [String: [Located<TypeExtension>]] = [:]
    var directiveDefinitions: [Located<DirectiveDefinition>] = []
    var schemaDefinitions: [Located<SchemaDefinition>] = []
    var schemaExtensions: [Located<SchemaExtension>] = []

    /// The schema under construction.
    var types: [Schema.NamedType] = []
    var typeIndexByName: [String: Int] = [:]
    /// Per type index: its definition (if it comes from a document) and extensions, for building
    /// and for the locations of schema errors.
    var definitionOfType: [Located<TypeDefinition>?] = []
    var extensionsOfType: [[Located<TypeExtension>]] = []
    /// Per type index, its field and input field definitions by name (see `fieldNode`).
    var fieldNodesOfType: [Int: [String: Located<FieldDefinition>]] = [:]
    var inputFieldNodesOfType: [Int: [String: Located<InputValueDefinition>]] = [:]

    init(documents: [Document], lenient: Bool) {
        self.documents = documents
        self.lenient = lenient
        locator = SourceLocator(documents: documents)
        for (index, document) in documents.enumerated() {
            collect(document.definitions, document: index)
        }
    }

    mutating func collect(_ definitions: [Definition], document: Int) {
        for definition in definitions {
            switch definition {
            case .type(let node): typeDefinitions.append(Located(node: node, document: document))
            case .typeExtension(let node):
                typeExtensions[node.name.value, default: []].append(Located(node: node, document: document))
            case .directive(let node): directiveDefinitions.append(Located(node: node, document: document))
            case .schema(let node): schemaDefinitions.append(Located(node: node, document: document))
            case .schemaExtension(let node): schemaExtensions.append(Located(node: node, document: document))
            case .operation, .fragment: break
            }
        }
    }

    // MARK: Diagnostics

    /// The location of `offset` in document `document`.
    mutating func location(_ document: Int, _ offset: Int) -> SourceLocation {
        locator.location(document: document, offset: offset)
    }

    /// The most problems reported one by one; one more line says that the rest were left out.
    static let maximumDiagnostics = 100

    /// Records a problem. In lenient mode it becomes a warning unless `fatal`. Past
    /// ``maximumDiagnostics`` it still counts (a fatal problem still leaves no schema) but is not
    /// listed.
    mutating func report(
        _ message: String, _ places: [(document: Int, offset: Int)], rule: String? = nil, fatal: Bool = false
    ) {
        let severity: Diagnostic.Severity = lenient && !fatal ? .warning : .error
        if severity == .error { hasFatalError = true }
        guard diagnostics.count < Self.maximumDiagnostics else {
            if diagnostics.count == Self.maximumDiagnostics {
                diagnostics.append(Diagnostic(
                    message: "Too many schema problems: only the first \(Self.maximumDiagnostics) are shown. "
                        + "Fix those and check again.",
                    severity: hasFatalError ? .error : .warning
                ))
            }
            return
        }
        var locations: [SourceLocation] = []
        for place in places where place.document >= 0 && documents[place.document].source != nil {
            locations.append(location(place.document, place.offset))
        }
        diagnostics.append(Diagnostic(message: message, locations: locations, rule: rule, severity: severity))
    }

    /// Checks the documents as SDL, reporting every problem.
    mutating func validateSDL() {
        var validator = SDLValidator(documents: documents)
        validator.run()
        for problem in validator.problems {
            report(problem.message, problem.places, rule: problem.rule, fatal: problem.fatal)
        }
    }

    // MARK: Building

    /// Builds the schema from the collected definitions.
    mutating func build() -> SchemaBuildResult {
        createTypes()
        fillTypes()
        let directives = buildDirectives()
        var contents = Schema.Contents(
            types: types, directives: directives.list, description: schemaDefinitions.first?.node.description?.value,
            typeIndexByName: typeIndexByName, directiveIndexByName: directives.index,
            metaFields: metaFields()
        )
        assignRootTypes(&contents)
        deriveSubtypes(&contents)
        pruneUnreferencedScalars(&contents)
        let schema = Schema(contents)
        checkSchema(schema)
        return SchemaBuildResult(schema: hasFatalError ? nil : schema, diagnostics: diagnostics)
    }

    /// Creates the named types: built-in scalars, introspection types, then the documents' types.
    mutating func createTypes() {
        for name in ["String", "Boolean", "Int", "Float", "ID"] {
            appendType(Schema.NamedType(name: name, kind: .scalar), definition: nil)
        }
        for definition in IntrospectionTypes.definitions {
            appendType(Schema.NamedType(name: definition.name.value, kind: kind(of: definition)),
                       definition: Located(node: definition, document: -1))
        }
        let builtInCount = types.count
        for located in typeDefinitions {
            let name = located.node.name.value
            if let existing = typeIndexByName[name] {
                if existing < 5 { continue }  // graphql-js uses its own definition of a built-in scalar.
                if existing < builtInCount {
                    report(
                        "Schema must contain uniquely named types but contains multiple types named \"\(name)\".",
                        [(located.document, located.node.name.range.start)], fatal: true
                    )
                    continue
                }
                // Defined twice (already reported as SDL): the last definition wins, as in graphql-js.
                if types[existing].kind == kind(of: located.node) {
                    definitionOfType[existing] = located
                } else {
                    types[existing] = Schema.NamedType(name: name, kind: kind(of: located.node))
                    definitionOfType[existing] = located
                }
                continue
            }
            appendType(Schema.NamedType(name: name, kind: kind(of: located.node)), definition: located)
        }
        for index in types.indices where index >= builtInCount {
            extensionsOfType[index] = typeExtensions[types[index].name] ?? []
        }
    }

    private mutating func appendType(_ type: Schema.NamedType, definition: Located<TypeDefinition>?) {
        typeIndexByName[type.name] = types.count
        types.append(type)
        definitionOfType.append(definition)
        extensionsOfType.append([])
    }

    func kind(of definition: TypeDefinition) -> Schema.TypeKind {
        switch definition {
        case .scalar: .scalar
        case .object: .object
        case .interface: .interface
        case .union: .union
        case .enum: .enum
        case .inputObject: .inputObject
        }
    }

    func metaFields() -> [Schema.Field] {
        let stringType = Schema.TypeRef(named: Schema.stringIndex, nonNullMask: 1)
        let schemaType = Schema.TypeRef(named: typeIndexByName["__Schema"] ?? 0, nonNullMask: 1)
        let typeType = Schema.TypeRef(named: typeIndexByName["__Type"] ?? 0)
        return [
            Schema.Field(
                name: "__typename", description: "The name of the current Object type at runtime.",
                arguments: [], type: stringType
            ),
            Schema.Field(
                name: "__schema", description: "Access the current type schema of this server.",
                arguments: [], type: schemaType
            ),
            Schema.Field(
                name: "__type", description: "Request the type information of a single type.",
                arguments: [Schema.InputValue(name: "name", type: stringType)], type: typeType
            ),
        ]
    }

    /// Sets the root operation types from the schema definition and extensions, or else from the
    /// conventional names `Query`, `Mutation` and `Subscription`.
    mutating func assignRootTypes(_ schema: inout Schema.Contents) {
        var operationTypes: [Located<OperationTypeDefinition>] = []
        for located in schemaDefinitions.prefix(1) {
            operationTypes += located.node.operationTypes.map { Located(node: $0, document: located.document) }
        }
        for located in schemaExtensions {
            operationTypes += located.node.operationTypes.map { Located(node: $0, document: located.document) }
        }
        if schemaDefinitions.isEmpty {
            schema.queryTypeIndex = typeIndexByName["Query"] ?? -1
            schema.mutationTypeIndex = typeIndexByName["Mutation"] ?? -1
            schema.subscriptionTypeIndex = typeIndexByName["Subscription"] ?? -1
        }
        for located in operationTypes {
            let index = typeIndexByName[located.node.type.name.value] ?? -1
            switch located.node.operation {
            case .query: schema.queryTypeIndex = index
            case .mutation: schema.mutationTypeIndex = index
            case .subscription: schema.subscriptionTypeIndex = index
            }
        }
    }

    /// Fills each abstract type's implementations and sorted subtype list.
    func deriveSubtypes(_ schema: inout Schema.Contents) {
        for index in schema.types.indices {
            let type = schema.types[index]
            if type.kind == .union {
                schema.types[index].subtypeIndices = Array(Set(type.memberIndices)).sorted()
            }
            guard type.kind == .object || type.kind == .interface else { continue }
            for interface in type.interfaceIndices where schema.types[interface].kind == .interface {
                if type.kind == .object, !schema.types[interface].implementationIndices.contains(index) {
                    schema.types[interface].implementationIndices.append(index)
                }
                schema.types[interface].subtypeIndices.append(index)
            }
        }
        for index in schema.types.indices where schema.types[index].kind == .interface {
            schema.types[index].subtypeIndices = Array(Set(schema.types[index].subtypeIndices)).sorted()
        }
        for index in schema.types.indices {
            schema.types[index].indexMembers()
        }
    }

    /// Leaves `Int`, `Float` and `ID` out of the type map when nothing defines or refers to them, as
    /// graphql-js does.
    func pruneUnreferencedScalars(_ schema: inout Schema.Contents) {
        var referenced = Set<Int>()
        for located in typeDefinitions {
            if let index = typeIndexByName[located.node.name.value], index < 5 { referenced.insert(index) }
        }
        func note(_ type: Schema.TypeRef) {
            if type.namedIndex < 5 { referenced.insert(type.namedIndex) }
        }
        for type in schema.types {
            for field in type.fields {
                note(field.type)
                field.arguments.forEach { note($0.type) }
            }
            type.inputFields.forEach { note($0.type) }
        }
        for directive in schema.directives {
            directive.arguments.forEach { note($0.type) }
        }
        for index in [Schema.intIndex, Schema.floatIndex, Schema.idIndex] where !referenced.contains(index) {
            schema.typeIndexByName[schema.types[index].name] = nil
        }
    }
}
