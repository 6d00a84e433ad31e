/// One operation picked out of a document, with the fragments it uses directly or through other
/// fragments, and nothing else.
///
/// This is what a GraphQL request sends: print it with ``Printer/print(_:)-(OperationSelection)``
/// for the pretty text or with ``Normalizer`` for the compact text a cache keys on.
public struct OperationSelection: Sendable, Hashable {
    /// The selected operation.
    public var operation: OperationDefinition
    /// The fragments the operation uses, transitively, each once, in the order the document
    /// defines them.
    public var fragments: [FragmentDefinition]

    /// Creates a selection from parts already chosen.
    /// - Parameters:
    ///   - operation: The operation.
    ///   - fragments: The fragments it uses.
    public init(operation: OperationDefinition, fragments: [FragmentDefinition]) {
        self.operation = operation
        self.fragments = fragments
    }

    /// Picks an operation out of a document, with the fragments it uses.
    ///
    /// Fragment cycles (invalid, but parseable) end the search instead of looping: each fragment is
    /// visited once.
    /// - Parameters:
    ///   - document: The document to pick from.
    ///   - operationName: The operation's name; `nil` picks the document's only operation.
    /// - Throws: ``OperationSelectionError`` when the document has no operation, the name is unknown
    ///   or given to several operations, no name is given and there are several operations, or a
    ///   used fragment is not defined, or defined more than once.
    public init(document: Document, operationName: String? = nil) throws(OperationSelectionError) {
        var index = try DocumentIndex(document, operationName: operationName)
        var collector = FragmentCollector()
        operation = index.operation
        fragments = try collector.fragments(usedBy: index.operation, in: &index).map { $0.definition }
    }

    /// The names of the fragments used, sorted by name.
    public var fragmentNames: [String] {
        fragments.map(\.name.value).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The operation's variable definitions, in the order written.
    public var variableDefinitions: [VariableDefinition] { operation.variableDefinitions }

    /// A document holding the operation followed by its fragments.
    public var document: Document {
        var definitions: [Definition] = [.operation(operation)]
        definitions.reserveCapacity(1 + fragments.count)
        for fragment in fragments { definitions.append(.fragment(fragment)) }
        return Document(definitions: definitions)
    }
}

/// Why an operation could not be picked out of a document.
public enum OperationSelectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The document defines no operation, only fragments or type-system definitions.
    case noOperation
    /// The document has several operations and no name was given; the names it has (`nil` for
    /// anonymous ones).
    case operationNameRequired(available: [String?])
    /// No operation has the given name; the names the document has.
    case unknownOperation(String, available: [String?])
    /// Several operations have the given name.
    case duplicateOperation(String)
    /// A fragment is spread but not defined in the document; its name and the definition that
    /// spreads it (an operation or fragment name, `nil` for an anonymous operation).
    case unknownFragment(String, usedBy: String?)
    /// A used fragment is defined more than once.
    case duplicateFragment(String)

    /// What went wrong and how to fix it.
    public var description: String {
        switch self {
        case .noOperation:
            return "The document defines no operation; add a query, mutation or subscription."
        case .operationNameRequired(let names):
            return "Must provide operation name if query contains multiple operations; "
                + "the document has \(Self.list(names))."
        case .unknownOperation(let name, let names):
            return "Unknown operation named \"\(name)\"; the document has \(Self.list(names))."
        case .duplicateOperation(let name):
            return "There can be only one operation named \"\(name)\"; rename the others."
        case .unknownFragment(let name, let user):
            let place = user.map { "\"\($0)\"" } ?? "the anonymous operation"
            return "Unknown fragment \"\(name)\", spread in \(place); define it in the document."
        case .duplicateFragment(let name):
            return "There can be only one fragment named \"\(name)\"; rename or remove the others."
        }
    }

    private static func list(_ names: [String?]) -> String {
        let shown = names.prefix(10).map { $0.map { "\"\($0)\"" } ?? "an anonymous operation" }
        let more = names.count > 10 ? " and \(names.count - 10) more" : ""
        return (names.count == 1 ? "one operation: " : "\(names.count) operations: ")
            + shown.joined(separator: ", ") + more
    }
}
