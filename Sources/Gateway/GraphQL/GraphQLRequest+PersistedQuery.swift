import Foundation

extension GraphQLRequest {
    /// Step 1 with the provider's GraphQL settings in place of `settings` unless the request
    /// was given its own.
    public func prepare(baseURL: URL, graphQL: GraphQLSettings) throws -> PreparedRequest {
        guard followsProviderSettings else { return try prepare(baseURL: baseURL) }
        var request = self
        request.settings = graphQL
        return try request.prepare(baseURL: baseURL)
    }

    /// The request as built, in its first form: with persisted queries on, the hash alone, and
    /// the hash with the text as its follow-up (see `PersistedQueryStage`); otherwise the text.
    func preparedForms(baseURL: URL) throws -> PreparedRequest {
        guard usesPersistedQuery else { return try prepared(.textOnly, baseURL: baseURL) }
        var first = try prepared(.hashOnly, baseURL: baseURL)
        let followUp = try prepared(.hashAndText, baseURL: baseURL)
        first.persistedQueryFollowUp = PersistedQueryFollowUp(method: followUp.method, parameters: followUp.parameters)
        first.persistedQueryUse = .hit
        return first
    }
}
