extension GraphQLRequest {
    /// Checks variables given as Swift values against `operation` and makes the request.
    ///
    /// ```swift
    /// let author = "Ada"
    /// let first = 2
    /// let request = try GraphQLRequest<JSONValue>(
    ///     operation: operations["BooksBy"], variables: ["author": author, "first": first])
    /// ```
    ///
    /// Each value becomes JSON as `GraphQLVariables(values:options:)` says (`nil` becomes
    /// `null`), written with the default `JSONEncodingOptions` (`Provider.fetch` uses the
    /// provider's `jsonEncoding`); then the variables are checked as
    /// `init(operation:variables:uploads:options:settings:)` checks them: presence, `null` and
    /// the built-in scalars always, enum values and input-object members only when the
    /// operation was loaded with a schema.
    ///
    /// - Throws: `GatewayError` of kind `.invalidVariables` for a value that does not encode as
    ///   JSON or a variable that does not fit; nothing is sent then.
    public init(operation: GraphQLOperation, variables: [String: any Encodable & Sendable],
                uploads: [String: GraphQLUpload] = [:], options: GraphQLRequestOptions = GraphQLRequestOptions(),
                settings: GraphQLSettings? = nil) throws {
        try self.init(operation: operation, variables: GraphQLVariables(values: variables),
                      uploads: uploads, options: options, settings: settings)
    }
}
