extension GraphQLRequest: FollowedRequestable {
    /// With the provider's settings unless its own were given; with persisted queries on, the
    /// hash alone, otherwise the text.
    func firstForm(graphQL: GraphQLSettings) -> any FollowedRequestable {
        var first = self
        if followsProviderSettings { first.settings = graphQL }
        first.persistedQueryStep = first.usesPersistedQuery ? .hashOnly : .textOnly
        return first
    }

    /// The hash with the text, when the server did not know the hash.
    func followUp(after error: GatewayError) -> (any Requestable)? {
        guard error.kind == .persistedQueryNotFound, persistedQueryStep == .hashOnly else { return nil }
        var next = self
        next.persistedQueryStep = .hashAndText
        return next
    }
}
