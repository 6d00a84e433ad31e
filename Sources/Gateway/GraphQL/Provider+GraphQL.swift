import GraphQLLanguage

extension Provider {
    /// Fetches a GraphQL operation through the same pipeline as REST endpoints.
    ///
    /// ```swift
    /// let operations = try OperationStore(directory: queriesURL)
    /// let track = try await provider.fetch(operations["GetTrack"], variables: ["id": 42], as: GetTrack.self)
    /// print(track.data, track.errors)
    /// ```
    ///
    /// The variables are checked against the operation's definitions first (declared defaults
    /// applied); a problem throws before anything is sent. Presence, `null` and the built-in
    /// scalars are always checked; enum values and the members of input objects only when the
    /// operations were loaded with a schema (`OperationStore(directory:schema:)`): without one,
    /// any value is sent for them and the server checks it. With persisted queries on (the
    /// provider's `GraphQLSettings.persistedQueries` or `options`), the hash goes first and the
    /// text follows only when the server does not know it.
    ///
    /// - Parameters:
    ///   - operation: the operation, usually from an `OperationStore`.
    ///   - variables: the variables, as a literal or JSON.
    ///   - uploads: files keyed by the variable path they fill (multipart request spec).
    ///   - type: what `data` decodes as; `JSONValue` keeps it as JSON.
    ///   - options: this request's settings.
    /// - Returns: the data, any errors that came with it, the extensions, the HTTP response,
    ///   the request sent last and the metrics.
    /// - Throws: `GatewayError`: `.invalidVariables` (nothing sent), `.graphQLErrors` or
    ///   `.unauthenticated` (errors and no data, every error in `graphQLErrors`),
    ///   `.invalidResponse` (HTML, not JSON), `.status`, `.decoding`, transport kinds; or
    ///   `CancellationError`.
    @concurrent public func fetch<Value: Decodable & Sendable>(
        _ operation: GraphQLOperation, variables: GraphQLVariables = [:], uploads: [String: GraphQLUpload] = [:],
        as type: Value.Type = Value.self, options: GraphQLRequestOptions = GraphQLRequestOptions()
    ) async throws -> GraphQLResponse<Value> {
        let request = try GraphQLRequest<Value>(
            operation: operation, variables: variables, uploads: uploads, options: options,
            settings: configuration.graphQL)
        return try await fetch(request)
    }

    /// Fetches a GraphQL operation whose variables are Swift values: strings, numbers,
    /// booleans, optionals (`nil` is sent as `null`), arrays, dictionaries and any `Encodable`.
    ///
    /// ```swift
    /// let author = "Ada"
    /// let first = 2
    /// let books = try await provider.fetch(operations["BooksBy"], variables: ["author": author, "first": first],
    ///                                      as: JSONValue.self)
    /// // sends "variables": {"author":"Ada","first":2}
    /// ```
    ///
    /// Each value is written as JSON with the provider's `jsonEncoding` (see
    /// `GraphQLVariables(values:options:)`), then checked as `fetch(_:variables:uploads:as:options:)`
    /// checks variables: enum values and input-object members only when the operations were
    /// loaded with a schema.
    ///
    /// - Throws: as `fetch(_:variables:uploads:as:options:)`, and `.invalidVariables` naming a
    ///   variable whose value does not encode as JSON.
    @concurrent public func fetch<Value: Decodable & Sendable>(
        _ operation: GraphQLOperation, variables: [String: any Encodable & Sendable],
        uploads: [String: GraphQLUpload] = [:], as type: Value.Type = Value.self,
        options: GraphQLRequestOptions = GraphQLRequestOptions()
    ) async throws -> GraphQLResponse<Value> {
        let converted = try GraphQLVariables(values: variables, options: configuration.jsonEncoding)
        return try await fetch(operation, variables: converted, uploads: uploads, as: type, options: options)
    }

    /// Fetches a GraphQL operation whose variables are an `Encodable` value (a struct whose
    /// properties are the variables), encoded with the provider's `jsonEncoding`.
    ///
    /// ```swift
    /// struct LikeTrackVariables: Encodable, Sendable { var input: LikeTrackInput }
    /// let variables = LikeTrackVariables(input: LikeTrackInput(trackID: "t1"))
/// let liked = try await provider.fetch(operations["LikeTrack"], variables: variables, as: Liked.self)
    /// ```
    /// - Throws: as `fetch(_:variables:uploads:as:options:)`, and `.invalidVariables` when the
    ///   value does not encode as a JSON object.
    @concurrent public func fetch<Value: Decodable & Sendable, Variables: Encodable & Sendable>(
        _ operation: GraphQLOperation, variables: Variables, uploads: [String: GraphQLUpload] = [:],
        as type: Value.Type = Value.self, options: GraphQLRequestOptions = GraphQLRequestOptions()
    ) async throws -> GraphQLResponse<Value> {
        let encoded = try GraphQLVariables(encoding: variables, options: configuration.jsonEncoding)
        return try await fetch(operation, variables: encoded, uploads: uploads, as: type, options: options)
    }

    /// Watches a GraphQL operation whose variables are Swift values: the cached response, then
    /// the fresh one, as `watch(_:variables:as:options:)` does; the values are converted as
    /// `fetch(_:variables:uploads:as:options:)` converts them.
    public func watch<Value: Decodable & Sendable>(
        _ operation: GraphQLOperation, variables: [String: any Encodable & Sendable],
        as type: Value.Type = Value.self, options: GraphQLRequestOptions = GraphQLRequestOptions()
    ) -> AsyncThrowingStream<GraphQLResponse<Value>, any Error> {
        do {
            let converted = try GraphQLVariables(values: variables, options: configuration.jsonEncoding)
            return watch(operation, variables: converted, as: type, options: options)
        } catch {
            return AsyncThrowingStream { $0.finish(throwing: error) }
        }
    }

    /// Sends a request made in advance: the same as `send(_:)`.
    ///
    /// - Returns: the response, with the request sent last and the metrics of the last call.
    /// - Throws: as `fetch(_:variables:uploads:as:options:)`.
    @concurrent public func fetch<Value>(_ request: GraphQLRequest<Value>) async throws -> GraphQLResponse<Value> {
        try await send(request)
    }

    /// Sends a GraphQL request made in advance, with persisted queries when its settings turn
    /// them on; `fetch(_:)` and `task(_:)` give the same answer.
    ///
    /// ```swift
    /// let request = try GraphQLRequest<JSONValue>(operation: operations["GetTrack"], variables: ["id": "t1"])
    /// let response = try await provider.send(request)
    /// print(response.data, response.persistedQuery, response.metrics.total)
    /// ```
    /// - Returns: the response, with the request sent last and the metrics of the last call.
    /// - Throws: as `fetch(_:variables:uploads:as:options:)`.
    @concurrent public func send<Value>(_ request: GraphQLRequest<Value>) async throws -> GraphQLResponse<Value> {
        GraphQLResponse(try await pipeline.send(request))
    }

    /// Starts a GraphQL request without waiting for it, as `task(_:)` starts any request; its
    /// `value` carries the request sent last and the metrics, as `send(_:)`'s answer does.
    ///
    /// - Parameter request: the request, made in advance.
    /// - Returns: the running request; await its `response` or `value`.
    public func task<Value>(_ request: GraphQLRequest<Value>) -> RequestTask<GraphQLResponse<Value>> {
        RequestTask(pipeline.start(request), name: request.name) { response in
            response.map { _ in GraphQLResponse(response) }
        }
    }
}

extension GraphQLResponse {
    /// The envelope of `response` with the request and metrics of the call filled in.
    init(_ response: Response<GraphQLResponse<Value>>) {
        self = response.value
        request = response.request
        metrics = response.metrics
    }
}
