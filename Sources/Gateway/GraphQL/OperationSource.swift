import GraphQLLanguage

/// Where a `GraphQLOperation`'s selection comes from: parsed when the operation was made (from
/// text or a document), or the text of a generated definition, parsed only when something asks
/// for the selection (variable checks, tooling). Sending an operation never asks.
enum OperationSource: Sendable {
    /// The selection, parsed when the operation was made.
    case parsed(OperationSelection)
    /// A generated definition's text, parsed on first use.
    case deferred(DeferredSelection)

    /// The selection; for a generated text that does not parse, the operation with no selections.
    var selection: OperationSelection {
        switch self {
        case .parsed(let selection): return selection
        case .deferred(let deferred):
            switch deferred.result {
            case .success(let selection): return selection
            case .failure: return deferred.empty
            }
        }
    }

    /// Throws the parse error of a generated text that does not parse.
    func checkParses() throws {
        guard case .deferred(let deferred) = self, case .failure(let error) = deferred.result else { return }
        throw error
    }
}

/// The text of a generated definition and, once asked for, its parsed selection (or why it
/// does not parse). Parsed at most once; later readers share the result.
final class DeferredSelection: Sendable {
    private let definition: GraphQLOperationDefinition
    private let parsed = Locked<Result<OperationSelection, GatewayError>?>(nil)

    init(_ definition: GraphQLOperationDefinition) { self.definition = definition }

    /// The parsed selection, or the error that says why the text does not parse.
    var result: Result<OperationSelection, GatewayError> {
        // Parsing under the lock keeps it to one parse; it calls nothing that takes this lock.
        parsed.withLock { state in
            if let state { return state }
            let result = Self.parse(definition)
            state = result
            return result
        }
    }

    /// The operation with its name and kind and nothing else.
    var empty: OperationSelection {
        let operation = OperationDefinition(operation: definition.kind, name: definition.name.map { Name($0) },
                                            selectionSet: SelectionSet(selections: []))
        return OperationSelection(operation: operation, fragments: [])
    }

    private static func parse(_ definition: GraphQLOperationDefinition) -> Result<OperationSelection, GatewayError> {
        let what = "the generated text of \(definition.label)"
        let fix = "generate the operation's type again (gateway generate) instead of editing its definition"
        let document: Document
        do {
            document = try Parser.parse(Source(definition.text, name: what), limits: .operations)
        } catch {
            var failure = GatewayError.invalidOperation([error.diagnostic], what: what)
            failure.fix = fix
            return .failure(failure)
        }
        do {
            return .success(try OperationSelection(document: document, operationName: definition.name))
        } catch {
            return .failure(GatewayError(.invalidOperation, "\(what): \(error.description)", fix: fix))
        }
    }
}
