import GraphQLLanguage

/// The GraphQL operations of an app, loaded from `.graphql` files once and looked up by name.
///
/// Every file is parsed once; fragments may be defined in any file of the store and are resolved
/// across files; each operation keeps only the fragments it uses. Given a schema, the whole store
/// is validated when it loads, and every problem is reported at once, each at its file, line and
/// column. Each operation's printed text, normalized text and cache-key part are computed here,
/// once.
///
/// ```swift
/// let operations = try OperationStore(directory: queriesURL, schema: schema)
/// let track = try await provider.fetch(operations["GetTrack"], variables: ["id": 42], as: GetTrack.self)
/// ```
///
/// The store's schema also decides how far variables are checked before a request is sent:
/// with it, enum values and the members of input objects are checked too (an unknown or
/// missing member, a value that is not one of the enum's); without it, only presence, `null`
/// and the built-in scalars are, and the server checks the rest.
///
/// Looking up a name the store does not have throws a `GatewayError` of kind
/// `.unknownOperation` that suggests near matches.
public struct OperationStore: Sendable {
    private let byName: [String: GraphQLOperation]
    /// The schema the store was validated against, if any.
    public let schema: Schema?
    /// The names of the sources loaded (file paths), in load order.
    public let sourceNames: [String]
    /// The names of the fragments the sources define, sorted.
    public let fragmentNames: [String]

    /// Loads operations from sources already read.
    ///
    /// - Parameters:
    ///   - sources: the documents, each named by its file path (diagnostics show the name).
    ///   - schema: when given, every document is validated against it as one unit.
    /// - Throws: `GatewayError` of kind `.invalidOperation` listing every syntax error,
    ///   validation error, anonymous or repeated operation, and missing fragment at once (see
    ///   `GatewayError.diagnostics`).
    public init(sources: [Source], schema: Schema? = nil) throws {
        let (documents, syntaxErrors) = Parser.parseEach(sources, limits: .operations)
        var diagnostics = syntaxErrors
        let inventory = Inventory(documents, checksStructure: schema == nil)
        diagnostics += inventory.diagnostics
        if let schema, diagnostics.isEmpty {
            diagnostics += Validator(schema: schema).validate(documents).filter { $0.severity == .error }
        }
        var operations: [String: GraphQLOperation] = [:]
        if diagnostics.isEmpty {
            let merged = Document(definitions: documents.flatMap { $0.definitions.filter(\.isExecutable) })
            for (name, place) in inventory.operations {
                do {
                    let selection = try OperationSelection(document: merged, operationName: name)
                    operations[name] = try GraphQLOperation(selection: selection, schema: schema, location: place)
                } catch let error as OperationSelectionError {
                    diagnostics.append(Diagnostic(message: error.description, locations: place.map { [$0] } ?? []))
                } catch {
                    let message = (error as? GatewayError)?.message ?? "\(error)"
                    diagnostics.append(Diagnostic(message: message, locations: place.map { [$0] } ?? []))
                }
            }
        }
        guard diagnostics.isEmpty else {
            throw GatewayError.invalidOperation(Self.ordered(diagnostics), what: Self.describe(sources))
        }
        byName = operations
        self.schema = schema
        sourceNames = sources.map(\.name)
        fragmentNames = inventory.fragmentNames.sorted()
    }

    /// The operation named `name`.
    ///
    /// - Throws: `GatewayError` of kind `.unknownOperation` naming near matches.
    public subscript(name: String) -> GraphQLOperation {
        get throws { try operation(named: name) }
    }

    /// The operation named `name`.
    ///
    /// - Throws: `GatewayError` of kind `.unknownOperation` naming near matches and the
    ///   operations the store has.
    public func operation(named name: String) throws -> GraphQLOperation {
        if let operation = byName[name] { return operation }
        let near = NameSuggestions.near(name, in: Array(byName.keys))
        let hint = near.isEmpty ? "" : "; did you mean " + near.map { "\"\($0)\"" }.joined(separator: ", ") + "?"
        let all = names
        let listed = all.prefix(30).joined(separator: ", ") + (all.count > 30 ? ", and \(all.count - 30) more" : "")
        throw GatewayError(
            .unknownOperation, "no operation named \"\(name)\" in the operation store\(hint)",
            fix: all.isEmpty ? "the store has no operations; check the folder it loads"
                : "the store has \(all.count) operation\(all.count == 1 ? "" : "s"): \(listed)")
    }

    /// Whether the store has an operation named `name`.
    public func contains(_ name: String) -> Bool { byName[name] != nil }

    /// The operation names, sorted.
    public var names: [String] { byName.keys.sorted() }

    /// The operations, sorted by name.
    public var operations: [GraphQLOperation] { names.compactMap { byName[$0] } }

    /// How many operations the store has.
    public var count: Int { byName.count }

    /// Diagnostics by file, then by position.
    private static func ordered(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { first, second in
            let a = first.element.locations.first, b = second.element.locations.first
            let fileA = a?.source?.name ?? "", fileB = b?.source?.name ?? ""
            if fileA != fileB { return fileA < fileB }
            if (a?.offset ?? 0) != (b?.offset ?? 0) { return (a?.offset ?? 0) < (b?.offset ?? 0) }
            return first.offset < second.offset
        }.map(\.element)
    }

    private static func describe(_ sources: [Source]) -> String {
        sources.count == 1 ? sources[0].name : "the \(sources.count) operation files"
    }
}

/// What a store's documents define, and the structural problems a validator would report when
/// there is no schema to validate against.
private struct Inventory {
    /// Named operations and where each is defined, in document order.
    var operations: [(String, SourceLocation?)] = []
    var fragmentNames: [String] = []
    var diagnostics: [Diagnostic] = []

    init(_ documents: [Document], checksStructure: Bool) {
        var operationPlaces: [String: [SourceLocation]] = [:]
        var fragmentPlaces: [String: [SourceLocation]] = [:]
        var operationOrder: [String] = []
        for document in documents {
            func place(_ offset: Int) -> SourceLocation? { document.source?.location(at: offset) }
            for definition in document.definitions {
                switch definition {
                case .operation(let operation):
                    guard let name = operation.name?.value else {
                        diagnostics.append(Diagnostic(
                            message: "An operation in an operation store needs a name, so that it can be looked up; "
                                + "write '\(operation.operation.rawValue) Name { … }'.",
                            locations: place(operation.range.start).map { [$0] } ?? []))
                        continue
                    }
                    if operationPlaces[name] == nil { operationOrder.append(name) }
                    operationPlaces[name, default: []] += place(operation.range.start).map { [$0] } ?? []
                case .fragment(let fragment):
                    let name = fragment.name.value
                    if fragmentPlaces[name] == nil { fragmentNames.append(name) }
                    fragmentPlaces[name, default: []] += place(fragment.range.start).map { [$0] } ?? []
                default:
                    guard checksStructure else { continue }
                    diagnostics.append(Diagnostic(
                        message: "Operation files hold operations and fragments; move type-system definitions "
                            + "to the schema.", locations: place(definition.range.start).map { [$0] } ?? []))
                }
            }
        }
        for name in operationOrder {
            let places = operationPlaces[name] ?? []
            if places.count > 1 {
                guard checksStructure else { continue }
                diagnostics.append(Diagnostic(
                    message: "There can be only one operation named \"\(name)\"; rename the others.",
                    locations: places))
            } else {
                operations.append((name, places.first))
            }
        }
        guard checksStructure else { return }
        for name in fragmentNames where (fragmentPlaces[name]?.count ?? 0) > 1 {
            diagnostics.append(Diagnostic(
                message: "There can be only one fragment named \"\(name)\"; rename or remove the others.",
                locations: fragmentPlaces[name] ?? []))
        }
    }
}
