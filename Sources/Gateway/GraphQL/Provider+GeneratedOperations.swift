import GraphQLLanguage

extension Provider {
    /// Fetches a generated operation through the same pipeline as every other request: the
    /// response cache (keyed as for the operation loaded from its file), persisted queries by
    /// the definition's hash, retries (a mutation only with an idempotency key), the queue,
    /// auth, interceptors and metrics.
    ///
    /// ```swift
    /// let track = try await provider.fetch(GetTrackQuery(id: "42"))
    /// print(track.data.track?.title ?? "no such track", track.errors)
    /// ```
    ///
    /// The variables are the value's properties under their declared names, encoded with the
    /// provider's `jsonEncoding` (its dates, say); they are not checked against the operation's
    /// definitions (the generator did that), and nothing is parsed. An operation with files (its
    /// `uploads`) goes as a multipart POST by the GraphQL multipart request specification.
    ///
    /// - Parameters:
    ///   - operation: the operation with its variables.
    ///   - options: this request's settings.
    /// - Returns: the data, any errors that came with it, the extensions, the HTTP response,
    ///   the request sent last and the metrics.
    /// - Throws: `GatewayError`: `.invalidVariables` (the value does not encode, or an upload's
    ///   path holds no `null` placeholder; nothing sent),
    ///   `.invalidRequest` for a subscription, `.graphQLErrors` or `.unauthenticated` (errors
    ///   and no data), `.status`, `.decoding` (the data does not fit `Data`), transport kinds;
    ///   or `CancellationError`.
    @concurrent public func fetch<Operation: GraphQLOperationType>(
        _ operation: Operation, options: GraphQLRequestOptions = GraphQLRequestOptions()
    ) async throws -> GraphQLResponse<Operation.Data> {
        try await send(request(operation, options: options))
    }

    /// Fetches a generated operation with a cache policy of its own.
    ///
    /// ```swift
    /// let track = try await provider.fetch(GetTrackQuery(id: "42"), cachePolicy: .cacheFirst)
    /// print(track.cacheOutcome)   // .hit when a fresh entry answered
    /// ```
    /// - Throws: as `fetch(_:options:)`; under `cacheOnly`, a `.cacheMiss` error when nothing
    ///   is cached.
    @concurrent public func fetch<Operation: GraphQLOperationType>(
        _ operation: Operation, cachePolicy: CachePolicy, options: GraphQLRequestOptions = GraphQLRequestOptions()
    ) async throws -> GraphQLResponse<Operation.Data> {
        var options = options
        options.cache.policy = cachePolicy
        return try await fetch(operation, options: options)
    }

    /// The cached response of a generated query (when there is one), then the fresh one from
    /// the network, then every change of its cache entry until the consuming task stops: a live
    /// query, as `watch(_:)` of an endpoint describes.
    ///
    /// ```swift
    /// for try await track in provider.watch(GetTrackQuery(id: "42")) {
    ///     print(track.data.track?.title ?? "no such track", track.cacheOutcome)
    /// }
    /// ```
    /// - Throws (in the sequence): as `fetch(_:options:)`; variables that do not encode end it
    ///   before anything is sent.
    public func watch<Query: GraphQLQuery>(
        _ query: Query, options: GraphQLRequestOptions = GraphQLRequestOptions()
    ) -> AsyncThrowingStream<GraphQLResponse<Query.Data>, any Error> {
        do {
            return watch(try request(query, options: options))
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
    }

    /// Starts a generated operation without waiting for it, as `task(_:)` starts any request.
    ///
    /// ```swift
    /// let running = provider.task(GetTrackQuery(id: "42"))
    /// let track = try await running.value   // GraphQLResponse<GetTrackQuery.Data>
    /// ```
    /// - Returns: the running request; variables that do not encode make it fail at once,
    ///   with nothing sent.
    public func task<Operation: GraphQLOperationType>(
        _ operation: Operation, options: GraphQLRequestOptions = GraphQLRequestOptions()
    ) -> RequestTask<GraphQLResponse<Operation.Data>> {
        do {
            return task(try request(operation, options: options))
        } catch {
            let definition = Operation.definition
            return RequestTask(Task<Delivery, any Error> { throw error },
                               name: definition.label)
        }
    }

    /// The request of a generated operation, with the provider's GraphQL settings and JSON encoding.
    private func request<Operation: GraphQLOperationType>(
        _ operation: Operation, options: GraphQLRequestOptions
    ) throws -> GraphQLRequest<Operation.Data> {
        try GraphQLRequest(operation, options: options, settings: configuration.graphQL,
                           encoding: configuration.jsonEncoding)
    }
}
