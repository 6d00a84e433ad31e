import GraphQLLanguage

extension Provider {
    /// The provider's response cache: `Configuration.cache`.
    public var responseCache: ResponseCache? { pipeline.cache }

    /// Removes the selected entries from the provider's response cache; nothing without one.
    ///
    /// ```swift
    /// try await provider.invalidateCache(.operation("GetTrack"))
    /// ```
    /// - Returns: how many entries were removed.
    /// - Throws: `GatewayError` of kind `.cache` when the store cannot be written.
    @discardableResult
    @concurrent public func invalidateCache(_ target: CacheInvalidation) async throws -> Int {
        try await responseCache?.invalidate(target) ?? 0
    }

    /// The cached response of `endpoint` (when there is one, fresh or stale), then the fresh one
    /// from the network, then every change of its cache entry for as long as it is iterated: a
    /// live query.
    ///
    /// ```swift
    /// for try await user in provider.watch(Endpoint<User>.get("users/42")) {
    ///     show(user.value)   // from the cache, from the network, then again whenever it changes
    /// }
    /// ```
    /// After the first two values, the sequence waits on the entry: when another request stores
    /// a different response under the same key, that one comes; when the entry is invalidated
    /// (by `invalidateCache(_:)`, a mutation that names one of its types, an unsafe request to
    /// its URL) or purged (logout), the network is asked again and its answer comes. Watchers of
    /// one key share one network call. The sequence ends when the task iterating it ends or stops
    /// iterating; a network failure ends it with the error.
    ///
    /// Each value is a `Response` with its own metrics and cache outcome. Without a response
    /// cache, or for a request the cache does not keep, only the network's answer comes. The key
    /// is the one at the start: after a sign-in as someone else, watch again.
    public func watch<Value>(_ endpoint: Endpoint<Value>) -> AsyncThrowingStream<Response<Value>, any Error> {
        let watched = endpoint.cachePolicy(.cacheAndNetwork)
        return watching(watched, body: { $0.httpResponse.body }) { policy in
            try await self.send(endpoint.cachePolicy(policy))
        }
    }

    /// The cached response of a GraphQL query (when there is one), then the fresh one from the
    /// network, then every change of its cache entry: a live query, as `watch(_:)` for an
    /// endpoint describes.
    ///
    /// ```swift
    /// let getTrack = try operations["GetTrack"]
    /// for try await track in provider.watch(getTrack, variables: ["id": 42], as: GetTrack.self) {
    ///     show(track.data)
    /// }
    /// ```
    /// - Throws (in the sequence): as `fetch(_:variables:uploads:as:options:)`; invalid
    ///   variables end it before anything is sent.
    public func watch<Value: Decodable & Sendable>(
        _ operation: GraphQLOperation, variables: GraphQLVariables = [:], as type: Value.Type = Value.self,
        options: GraphQLRequestOptions = GraphQLRequestOptions()
    ) -> AsyncThrowingStream<GraphQLResponse<Value>, any Error> {
        do {
            let request = try GraphQLRequest<Value>(
                operation: operation, variables: variables, options: options, settings: configuration.graphQL)
            return watch(request)
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
    }

    /// The cached response of a GraphQL request made in advance, then the fresh one, then every
    /// change of its cache entry.
    public func watch<Value>(_ request: GraphQLRequest<Value>)
        -> AsyncThrowingStream<GraphQLResponse<Value>, any Error>
    {
        watching(request.cachePolicy(.cacheAndNetwork), body: { $0.httpResponse.body }) { policy in
            try await self.fetch(request.cachePolicy(policy))
        }
    }
}

extension Provider {
    /// Fetches a GraphQL operation with a cache policy of its own.
    ///
    /// ```swift
    /// let track = try await provider.fetch(operations["GetTrack"], variables: ["id": 42], as: GetTrack.self,
    ///                                      cachePolicy: .networkFirst)
    /// ```
    /// - Throws: as `fetch(_:variables:uploads:as:options:)`; under `cacheOnly`, a `.cacheMiss`
    ///   error when nothing is cached.
    @concurrent public func fetch<Value: Decodable & Sendable>(
        _ operation: GraphQLOperation, variables: GraphQLVariables = [:], as type: Value.Type = Value.self,
        cachePolicy: CachePolicy, options: GraphQLRequestOptions = GraphQLRequestOptions()
    ) async throws -> GraphQLResponse<Value> {
        var options = options
        options.cache.policy = cachePolicy
        return try await fetch(operation, variables: variables, as: type, options: options)
    }
}

extension Response {
    /// What the cache did for the request (`metrics.cacheOutcome`).
    public var cacheOutcome: CacheOutcome { metrics.cacheOutcome }
}

extension GraphQLResponse {
    /// What the cache did for the request (`metrics.cacheOutcome`; set by `Provider.fetch`).
    public var cacheOutcome: CacheOutcome { metrics.cacheOutcome }
}
