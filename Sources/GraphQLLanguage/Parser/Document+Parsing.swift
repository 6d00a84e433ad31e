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

extension Parser {
    /// Parses every source, going on past a file with a syntax error so that all of them are
    /// reported at once: the documents that parsed, and a diagnostic for each that did not.
    package static func parseEach(_ sources: [Source], limits: Limits)
        -> (documents: [Document], diagnostics: [Diagnostic])
    {
        var documents: [Document] = []
        var diagnostics: [Diagnostic] = []
        for source in sources {
            do {
                documents.append(try parse(source, limits: limits))
            } catch {
                diagnostics.append(error.diagnostic)
            }
        }
        return (documents, diagnostics)
    }
}
