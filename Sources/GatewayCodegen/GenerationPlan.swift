import GraphQLLanguage

/// The work of one ``CodeGenerator/generate(_:)`` after validation: which types to write, under
/// which Swift names, and their files.
struct GenerationPlan {
    let schema: Schema
    let configuration: CodegenConfiguration
    var diagnostics: [Diagnostic] = []

    /// What does not stop generation, such as an anonymous operation named after its file.
    var warnings: [Diagnostic] = []

    struct Defined<Node> {
        var node: Node
        var location: SourceLocation?
        var fileName: String
        /// The file it was read from, for the places of its parts.
        var source: Source?
    }

    /// The operations and fragments as written, in file order; the operations' index is their key.
    private(set) var operationDefinitions: [Defined<OperationDefinition>] = []
    private(set) var fragmentDefinitions: [Defined<FragmentDefinition>] = []
    /// The same definitions with `__typename` added, index for index.
    private(set) var completedOperations: [OperationDefinition] = []
    private(set) var completedFragments: [FragmentDefinition] = []
    var names: GeneratedNames
    /// The Swift type name of each operation, and the model of its `Data`, by the operation's index.
    var operationTypes: [Int: String] = [:]
    private(set) var dataModels: [Int: SelectionModel] = [:]
    private(set) var fragmentModels: [String: SelectionModel] = [:]
    private(set) var usedTypes: Set<String> = []

    init(schema: Schema, configuration: CodegenConfiguration, documents: [Document]) {
        self.schema = schema
        self.configuration = configuration
        names = GeneratedNames(schema: schema, configuration: configuration)
        let insertion = TypenameInsertion(schema: schema)
        for document in documents {
            let fileName = document.source.map { Self.fileName($0.name) } ?? ""
            for definition in document.definitions {
                let location = document.source?.location(at: definition.range.start)
                switch definition {
                case .operation(let operation):
                    operationDefinitions.append(Defined(node: operation, location: location, fileName: fileName,
                                                        source: document.source))
                    completedOperations.append(insertion.adding(to: operation))
                case .fragment(let fragment):
                    fragmentDefinitions.append(Defined(node: fragment, location: location, fileName: fileName,
                                                       source: document.source))
                    completedFragments.append(insertion.adding(to: fragment))
                default:
                    continue
                }
            }
        }
    }

    /// `GetTrack.graphql` for `Queries/GetTrack.graphql`.
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// Builds the models and gives every generated type its Swift name; clashes become diagnostics.
    mutating func name() {
        var byName: [String: FragmentDefinition] = [:]
        for fragment in completedFragments { byName[fragment.name.value] = fragment }
        var builder = SelectionBuilder(schema: schema, fragments: byName)
        for fragment in completedFragments {
            fragmentModels[fragment.name.value] = builder.model(
                typeName: fragment.typeCondition.name.value, sets: [(fragment.selectionSet, false)])
        }
        for (index, operation) in completedOperations.enumerated() {
            guard let root = schema.rootType(for: operation.operation) else { continue }
            dataModels[index] = builder.model(typeName: root.name, sets: [(operation.selectionSet, false)])
            for variable in operation.variableDefinitions { addInputTypes(variable.type.namedType.name.value) }
        }
        usedTypes.formUnion(builder.enumsUsed)
        nameTypes()
    }

    static func suffix(_ kind: OperationType) -> String {
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
