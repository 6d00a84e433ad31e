import GraphQLLanguage

/// The work of one ``CodeGenerator/generate(_:)`` after validation: which types to write, under
/// which Swift names, and their files.
struct GenerationPlan {
    let schema: Schema
    let configuration: CodegenConfiguration
    var diagnostics: [Diagnostic] = []

    struct Defined<Node> {
        var node: Node
        var location: SourceLocation?
        var fileName: String
        /// The file it was read from, for the places of its parts.
        var source: Source?
    }

    private(set) var operationDefinitions: [Defined<OperationDefinition>] = []
    private(set) var fragmentDefinitions: [Defined<FragmentDefinition>] = []
    /// Every executable definition as written, and with `__typename` added.
    private(set) var written: Document
    private(set) var completed: Document
    private(set) var names: GeneratedNames
    private(set) var operationTypes: [String: String] = [:]
    private(set) var dataModels: [String: SelectionModel] = [:]
    private(set) var fragmentModels: [String: SelectionModel] = [:]
    private(set) var usedTypes: Set<String> = []

    init(schema: Schema, configuration: CodegenConfiguration, documents: [Document]) {
        self.schema = schema
        self.configuration = configuration
        names = GeneratedNames(schema: schema, configuration: configuration)
        let insertion = TypenameInsertion(schema: schema)
        var writtenDefinitions: [Definition] = []
        var completedDefinitions: [Definition] = []
        for document in documents {
            let fileName = document.source.map { Self.fileName($0.name) } ?? ""
            for definition in document.definitions {
                let location = document.source?.location(at: definition.range.start)
                switch definition {
                case .operation(let operation):
                    operationDefinitions.append(Defined(node: operation, location: location, fileName: fileName,
                                                        source: document.source))
                    writtenDefinitions.append(definition)
                    completedDefinitions.append(.operation(insertion.adding(to: operation)))
                case .fragment(let fragment):
                    fragmentDefinitions.append(Defined(node: fragment, location: location, fileName: fileName,
                                                       source: document.source))
                    writtenDefinitions.append(definition)
                    completedDefinitions.append(.fragment(insertion.adding(to: fragment)))
                default:
                    continue
                }
            }
        }
        written = Document(definitions: writtenDefinitions)
        completed = Document(definitions: completedDefinitions)
    }

    /// `GetTrack.graphql` for `Queries/GetTrack.graphql`.
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Builds the models and gives every generated type its Swift name; clashes become diagnostics.
    mutating func name() {
        var byName: [String: FragmentDefinition] = [:]
        for case .fragment(let fragment) in completed.definitions { byName[fragment.name.value] = fragment }
        var builder = SelectionBuilder(schema: schema, fragments: byName)
        for case .fragment(let fragment) in completed.definitions {
            fragmentModels[fragment.name.value] = builder.model(
                typeName: fragment.typeCondition.name.value, sets: [(fragment.selectionSet, false)])
        }
        for case .operation(let operation) in completed.definitions {
            guard let name = operation.name?.value, let root = schema.rootType(for: operation.operation)
            else { continue }
            dataModels[name] = builder.model(typeName: root.name, sets: [(operation.selectionSet, false)])
            for variable in operation.variableDefinitions { addInputTypes(variable.type.namedType.name.value) }
        }
        usedTypes.formUnion(builder.enumsUsed)

        var owners: [String: String] = [:]
        func claim(_ swiftName: String, by owner: String, at location: SourceLocation?) {
            let key = swiftName.lowercased()
            if let other = owners[key] {
                diagnostics.append(Diagnostic(
                    message: "The Swift type \(swiftName) for \(owner) would share its name (and file) with \(other); "
                        + "rename one of them.",
                    locations: location.map { [$0] } ?? []))
            } else {
                owners[key] = "\(owner) (\(swiftName))"
            }
        }
        for typeName in usedTypes.sorted() {
            let swiftName = GeneratedNames.topLevelName(typeName)
            names.schemaTypes[typeName] = swiftName
            claim(swiftName, by: "the schema type \(typeName)", at: nil)
        }
        for fragment in fragmentDefinitions {
            let swiftName = GeneratedNames.topLevelName(SwiftNames.upperFirst(fragment.node.name.value))
            names.fragments[fragment.node.name.value] = swiftName
            claim(swiftName, by: "the fragment \(fragment.node.name.value)", at: fragment.location)
        }
        for operation in operationDefinitions {
            guard let name = operation.node.name?.value else {
                diagnostics.append(Diagnostic(
                    message: "An operation needs a name to become a Swift type; "
                        + "name this \(operation.node.operation.rawValue).",
                    locations: operation.location.map { [$0] } ?? []))
                continue
            }
            let suffix = Self.suffix(operation.node.operation)
            let base = SwiftNames.upperFirst(name)
            let swiftName = GeneratedNames.topLevelName(base.hasSuffix(suffix) ? base : base + suffix)
            operationTypes[name] = swiftName
            claim(swiftName, by: "the \(operation.node.operation.rawValue) \(name)", at: operation.location)
            if operation.node.variableDefinitions.contains(where: { $0.variable.name.value == "Data" }) {
                diagnostics.append(Diagnostic(
                    message: "The variable $Data would clash with the generated Data type of \(swiftName); rename it.",
                    locations: operation.location.map { [$0] } ?? []))
            }
        }
        names.reserved.formUnion(names.schemaTypes.values)
        names.reserved.formUnion(names.fragments.values)
        names.reserved.formUnion(operationTypes.values)
    }

    private static func suffix(_ kind: OperationType) -> String {
        switch kind {
        case .query: "Query"
        case .mutation: "Mutation"
        case .subscription: "Subscription"
        }
    }

    /// Adds an enum or input object a variable uses, with the enums and input objects inside it.
    private mutating func addInputTypes(_ typeName: String) {
        guard !usedTypes.contains(typeName), let type = schema.type(named: typeName) else { return }
        switch type.kind {
        case .enum:
            usedTypes.insert(typeName)
        case .inputObject:
            usedTypes.insert(typeName)
            for field in type.inputFields { addInputTypes(schema.namedType(of: field.type).name) }
        default:
            return
        }
    }
}
