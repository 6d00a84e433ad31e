extension Document {
    /// Parses GraphQL text into a document.
    /// - Parameters:
    ///   - text: The document's text.
    ///   - name: The name shown in errors, usually the file's path.
    ///   - limits: The bounds to enforce; ``Limits/operations`` by default.
    /// - Throws: ``GraphQLSyntaxError`` at the first problem.
    public init(parsing text: String, name: String = "GraphQL request", limits: Limits = .operations)
        throws(GraphQLSyntaxError)
    {
        self = try Parser.parse(Source(text, name: name), limits: limits)
    }

    /// Parses a source into a document.
    /// - Parameters:
    ///   - source: The text and its name.
    ///   - limits: The bounds to enforce; ``Limits/operations`` by default.
    /// - Throws: ``GraphQLSyntaxError`` at the first problem.
    public init(parsing source: Source, limits: Limits = .operations) throws(GraphQLSyntaxError) {
        self = try Parser.parse(source, limits: limits)
    }
}
