import GraphQLLanguage

extension GatewayError.Kind {
    /// Operation files do not parse or validate, or an operation cannot be built from them.
    public static let invalidOperation = GatewayError.Kind(rawValue: "invalid operation")
    /// No operation of that name is in the operation store.
    public static let unknownOperation = GatewayError.Kind(rawValue: "unknown operation")
    /// The variables do not fit the operation's variable definitions; nothing was sent.
    public static let invalidVariables = GatewayError.Kind(rawValue: "invalid variables")
    /// The GraphQL server answered with errors and no data (or with errors in a failed status).
    public static let graphQLErrors = GatewayError.Kind(rawValue: "GraphQL errors")
    /// The GraphQL server answered with an error that means "not authenticated" (by the
    /// provider's `GraphQLSettings.unauthenticated` predicate) and no data.
    public static let unauthenticated = GatewayError.Kind(rawValue: "unauthenticated")
    /// The server does not know the hash of an automatic persisted query; the query is sent
    /// again with its text (`Provider.fetch` does this itself).
    public static let persistedQueryNotFound = GatewayError.Kind(rawValue: "persisted query not found")
}

/// Several GraphQL diagnostics as one error: the `underlying` error of a `.invalidOperation`
/// failure.
public struct GraphQLDiagnostics: Error, Sendable, CustomStringConvertible, RestatedInMessage {
    /// Every problem, each with its file, line and column.
    public var diagnostics: [Diagnostic]

    /// Wraps diagnostics.
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    /// Each diagnostic rendered, separated by blank lines.
    public var description: String { diagnostics.map { $0.rendered() }.joined(separator: "\n\n") }
}

/// Several variable problems as one error: the `underlying` error of a `.invalidVariables` failure.
public struct GraphQLVariableErrors: Error, Sendable, CustomStringConvertible, RestatedInMessage {
    /// Every problem, in the order of the operation's variable definitions.
    public var errors: [GraphQLVariableError]

    /// Wraps variable problems.
    public init(_ errors: [GraphQLVariableError]) { self.errors = errors }

    /// One message per line.
    public var description: String { errors.map(\.message).joined(separator: "\n") }
}

extension GatewayError {
    /// The GraphQL errors the server sent, for `.graphQLErrors` and `.unauthenticated` failures
    /// (and a `.decoding` failure of partial data); empty otherwise.
    public var graphQLErrors: [GraphQLError] { apiError as? [GraphQLError] ?? [] }

    /// The diagnostics of an `.invalidOperation` failure; empty otherwise.
    public var diagnostics: [Diagnostic] { (underlying as? GraphQLDiagnostics)?.diagnostics ?? [] }

    /// The variable problems of an `.invalidVariables` failure; empty otherwise.
    public var variableErrors: [GraphQLVariableError] { (underlying as? GraphQLVariableErrors)?.errors ?? [] }

    /// A `.invalidOperation` error that lists every diagnostic, each with its place.
    static func invalidOperation(_ diagnostics: [Diagnostic], what: String) -> GatewayError {
        let count = diagnostics.count
        let header = "\(count) problem\(count == 1 ? "" : "s") in \(what):\n"
        return GatewayError(
            .invalidOperation, header + GraphQLDiagnostics(diagnostics).description,
            fix: "correct the documents at the places shown", underlying: GraphQLDiagnostics(diagnostics))
    }
}
