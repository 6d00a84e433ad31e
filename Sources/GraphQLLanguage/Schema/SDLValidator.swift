/// Checks SDL documents the way graphql-js's `validateSDL` does with its `specifiedSDLRules`: one
/// schema definition, unique names (types, fields, arguments, enum values, directives, operation
/// types), known types and directives, directives in allowed locations and not repeated, extensions
/// of defined types of the same kind, known and required directive arguments, unique input fields.
///
/// Messages are graphql-js's; each diagnostic names its rule. An unknown type is fatal even when
/// building leniently, since no schema can be built around it.
struct SDLValidator {
    typealias Place = SchemaBuilder.Place

    struct Problem {
        var message: String
        var places: [Place]
        var rule: String
        var fatal: Bool
    }

    struct KnownDirective {
        var locations: Set<String>
        var arguments: [String]
        var requiredArguments: [(name: String, type: String)]
        var repeatable: Bool
    }

    let documents: [Document]
    var problems: [Problem] = []
    /// Type name → its (last) definition's kind, for extensions and known types.
    var definedTypeKinds: [String: Schema.TypeKind] = [:]
    var definedTypeNames: [String] = []
    var knownDirectives: [String: KnownDirective] = [:]

    // State of the uniqueness rules, across documents.
    var schemaDefinitionCount = 0
    var operationTypePlaces: [OperationType: Place] = [:]
    var typeNamePlaces: [String: Place] = [:]
    var directiveNamePlaces: [String: Place] = [:]
    var fieldNamePlaces: [String: [String: Place]] = [:]
    var enumValuePlaces: [String: [String: Place]] = [:]
    var typeDirectivesSeen: [String: [String: Place]] = [:]
    var schemaDirectivesSeen: [String: Place] = [:]

    init(documents: [Document]) {
        self.documents = documents
        for definition in IntrospectionTypes.specifiedDirectives {
            knownDirectives[definition.name.value] = Self.known(definition)
        }
        for document in documents {
            for definition in document.definitions {
                switch definition {
                case .type(let node):
                    if definedTypeKinds[node.name.value] == nil { definedTypeNames.append(node.name.value) }
                    definedTypeKinds[node.name.value] = Self.kind(of: node)
                case .directive(let node):
                    knownDirectives[node.name.value] = Self.known(node)
                default: break
                }
            }
        }
    }

    static func known(_ definition: DirectiveDefinition) -> KnownDirective {
        KnownDirective(
            locations: Set(definition.locations.map(\.value)),
            arguments: definition.arguments.map(\.name.value),
            requiredArguments: definition.arguments.compactMap { argument in
                guard case .nonNull = argument.type, argument.defaultValue == nil else { return nil }
                return (argument.name.value, TypePrinter.print(argument.type))
            },
            repeatable: definition.repeatable
        )
    }

    static func kind(of definition: TypeDefinition) -> Schema.TypeKind {
        switch definition {
        case .scalar: .scalar
        case .object: .object
        case .interface: .interface
        case .union: .union
        case .enum: .enum
        case .inputObject: .inputObject
        }
    }

    mutating func report(_ message: String, _ places: [Place], rule: String, fatal: Bool = false) {
        problems.append(Problem(message: message, places: places, rule: rule, fatal: fatal))
    }

    /// Runs every rule over every document.
    mutating func run() {
        for (index, document) in documents.enumerated() {
            for definition in document.definitions {
                check(definition, document: index)
            }
        }
    }

    private mutating func check(_ definition: Definition, document: Int) {
        switch definition {
        case .operation, .fragment:
            break
        case .schema(let node):
            schemaDefinitionCount += 1
            if schemaDefinitionCount > 1 {
                report("Must provide only one schema definition.", [(document, node.range.start)],
                       rule: "LoneSchemaDefinitionRule")
            }
            checkOperationTypes(node.operationTypes, document: document)
            checkDirectives(node.directives, at: "SCHEMA", bucket: .schema, document: document)
        case .schemaExtension(let node):
            checkOperationTypes(node.operationTypes, document: document)
            checkDirectives(node.directives, at: "SCHEMA", bucket: .schema, document: document)
        case .type(let node):
            let name = node.name.value
            if let first = typeNamePlaces[name] {
                report("There can be only one type named \"\(name)\".", [first, (document, node.name.range.start)],
                       rule: "UniqueTypeNamesRule")
            } else {
                typeNamePlaces[name] = (document, node.name.range.start)
            }
            checkTypeBody(TypeBody(node), typeName: name, document: document)
        case .typeExtension(let node):
            checkExtension(node, document: document)
            checkTypeBody(TypeBody(node), typeName: node.name.value, document: document)
        case .directive(let node):
            let name = node.name.value
            if let first = directiveNamePlaces[name] {
                report("There can be only one directive named \"@\(name)\".",
                       [first, (document, node.name.range.start)], rule: "UniqueDirectiveNamesRule")
            } else {
                directiveNamePlaces[name] = (document, node.name.range.start)
            }
            checkArgumentDefinitions(node.arguments, parent: "@\(name)", document: document)
        }
    }

    private mutating func checkOperationTypes(_ operationTypes: [OperationTypeDefinition], document: Int) {
        for operationType in operationTypes {
            checkNamedType(operationType.type, document: document)
            let place: Place = (document, operationType.range.start)
            if let first = operationTypePlaces[operationType.operation] {
                report("There can be only one \(operationType.operation.rawValue) type in schema.", [first, place],
                       rule: "UniqueOperationTypesRule")
            } else {
                operationTypePlaces[operationType.operation] = place
            }
        }
    }

    private mutating func checkExtension(_ node: TypeExtension, document: Int) {
        let name = node.name.value
        let extensionKind = TypeBody(node).kind
        if let kind = definedTypeKinds[name] {
            if kind != extensionKind {
                var places: [Place] = []
                if let definition = lastDefinitionPlace(of: name) { places.append(definition) }
                places.append((document, node.range.start))
                report("Cannot extend non-\(Self.kindWord(extensionKind)) type \"\(name)\".", places,
                       rule: "PossibleTypeExtensionsRule")
            }
        } else {
            let suggestions = Suggestions.list(name, definedTypeNames)
            report("Cannot extend type \"\(name)\" because it is not defined." + Suggestions.didYouMean(suggestions),
                   [(document, node.name.range.start)], rule: "PossibleTypeExtensionsRule")
        }
    }

    private func lastDefinitionPlace(of name: String) -> Place? {
        var place: Place?
        for (index, document) in documents.enumerated() {
            for case .type(let node) in document.definitions where node.name.value == name {
                place = (index, node.range.start)
            }
        }
        return place
    }

    static func kindWord(_ kind: Schema.TypeKind) -> String {
        switch kind {
        case .scalar: "scalar"
        case .object: "object"
        case .interface: "interface"
        case .union: "union"
        case .enum: "enum"
        case .inputObject: "input object"
        }
    }
}
