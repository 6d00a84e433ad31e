/// The error thrown when a document cannot be parsed: a syntax error, invalid UTF-8, or a
/// ``Limits`` bound exceeded.
public struct GraphQLSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The message in graphql-js's words, for example `Syntax Error: Expected Name, found <EOF>.`
    public var message: String
    /// Where parsing stopped.
    public var location: SourceLocation
    /// The bound that was exceeded, or `nil` for an error in the text itself.
    public var limit: Limits.Limit?

    /// Creates a syntax error.
    /// - Parameters:
    ///   - message: The message, starting with `Syntax Error:`.
    ///   - location: Where parsing stopped.
    ///   - limit: The bound that was exceeded, if any.
    public init(message: String, location: SourceLocation, limit: Limits.Limit? = nil) {
        self.message = message
        self.location = location
        self.limit = limit
    }

    /// The error as a diagnostic with one location.
    public var diagnostic: Diagnostic {
        Diagnostic(message: message, locations: [location])
    }

    /// The rendered diagnostic: `path:line:column: error: message`, the source line and a caret.
    public var description: String { diagnostic.rendered() }
}
