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
    public func invalidateCache(_ target: CacheInvalidation) async throws -> Int {
        try await responseCache?.invalidate(target) ?? 0
    }

    /// The cached response of `endpoint` (when there is one, fresh or stale), then the fresh one
    /// from the network: the `cacheAndNetwork` policy.
    ///
    /// ```swift
    /// for try await user in provider.watch(Endpoint<User>.get("users/42")) {
    ///     show(user.value)   // at once from the cache, then again when the network answers
    /// }
    /// ```
    /// Each value is a `Response` with its own metrics and cache outcome. A network failure
    /// after a cached value ends the sequence with the error. Without a response cache, only
    /// the network's answer comes.
    public func watch<Value>(_ endpoint: Endpoint<Value>) -> AsyncThrowingStream<Response<Value>, any Error> {
        Self.cachedThenFresh(hasCache: responseCache != nil) { policy in
            try await self.send(endpoint.cachePolicy(policy))
        }
    }

    /// The cached response of a GraphQL query (when there is one), then the fresh one from the
    /// network: the `cacheAndNetwork` policy.
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

    /// The cached response of a GraphQL request made in advance, then the fresh one.
    public func watch<Value>(_ request: GraphQLRequest<Value>)
        -> AsyncThrowingStream<GraphQLResponse<Value>, any Error>
    {
        Self.cachedThenFresh(hasCache: responseCache != nil) { policy in
            try await self.fetch(request.cachePolicy(policy))
        }
    }

    /// Runs `load` with `cacheOnly` (a miss yields nothing) and then with `networkOnly`.
    private static func cachedThenFresh<Element: Sendable>(
        hasCache: Bool, _ load: @escaping @Sendable (CachePolicy) async throws -> Element
    ) -> AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    if hasCache {
                        do {
                            continuation.yield(try await load(.cacheOnly))
                        } catch let error as GatewayError where error.kind == .cacheMiss || error.kind == .cache {
                            // Nothing cached (or nothing readable): the network's answer follows.
                        }
                    }
                    continuation.yield(try await load(.networkOnly))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
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
    public func fetch<Value: Decodable & Sendable>(
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
