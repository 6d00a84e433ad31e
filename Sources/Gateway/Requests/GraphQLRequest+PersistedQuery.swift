extension GraphQLRequest: FollowedRequestable {
    /// With persisted queries on, the hash alone; otherwise the text.
    var firstForm: any Requestable {
        var first = self
        first.persistedQueryStep = usesPersistedQuery ? .hashOnly : .textOnly
        return first
    }

    /// The hash with the text, when the server did not know the hash.
    func followUp(after error: GatewayError) -> (any Requestable)? {
        guard error.kind == .persistedQueryNotFound, usesPersistedQuery else { return nil }
        var next = self
        next.persistedQueryStep = .hashAndText
        return next
    }
}
