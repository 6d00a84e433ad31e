extension Endpoint {
    /// A copy that uses the response cache by `policy` (the cache's default otherwise).
    ///
    /// ```swift
    /// let user = try await provider.send(Endpoint<User>.get("users/42").cachePolicy(.networkFirst))
    /// ```
    public func cachePolicy(_ policy: CachePolicy) -> Endpoint {
        var copy = self
        copy.cache.policy = policy
        return copy
    }

    /// A copy whose stored response stays fresh for `ttl` (instead of what its headers or the
    /// cache's default say).
    public func cacheTTL(_ ttl: Duration) -> Endpoint {
        var copy = self
        copy.cache.ttl = ttl
        return copy
    }

    /// A copy whose stored response carries `tags`, for `ResponseCache.invalidate(.tag(_:))`.
    public func cacheTags(_ tags: [String]) -> Endpoint {
        var copy = self
        copy.cache.tags = tags
        return copy
    }
}

extension GraphQLRequest {
    /// A copy that uses the response cache by `policy` (the cache's default otherwise).
    ///
    /// ```swift
    /// let request = try GraphQLRequest<JSONValue>(operation: operations["GetTrack"]).cachePolicy(.networkOnly)
    /// ```
    /// `JSONValue`, the data as plain JSON, needs `import GraphQLLanguage`.
    public func cachePolicy(_ policy: CachePolicy) -> GraphQLRequest {
        var copy = self
        copy.options.cache.policy = policy
        return copy
    }

    /// A copy whose stored response stays fresh for `ttl` (instead of the cache's default).
    public func cacheTTL(_ ttl: Duration) -> GraphQLRequest {
        var copy = self
        copy.options.cache.ttl = ttl
        return copy
    }

    /// A copy whose stored response carries `tags`, for `ResponseCache.invalidate(.tag(_:))`.
    public func cacheTags(_ tags: [String]) -> GraphQLRequest {
        var copy = self
        copy.options.cache.tags = tags
        return copy
    }
}
