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
    /// applied); a problem throws before anything is sent. With persisted queries on (the
    /// provider's `GraphQLSettings.persistedQueries` or `options`), the hash goes first and the
    /// text follows only when the server does not know it.
    ///
    /// - Parameters:
    ///   - operation: the operation, usually from an `OperationStore`.
    ///   - variables: the variables, as a literal or JSON.
    ///   - uploads: files keyed by the variable path they fill (multipart request spec).
    ///   - type: what `data` decodes as; `JSONValue` keeps it as JSON.
    ///   - options: this request's settings.
    /// - Returns: the data, any errors that came with it, the extensions and the HTTP response.
    /// - Throws: `GatewayError`: `.invalidVariables` (nothing sent), `.graphQLErrors` or
    ///   `.unauthenticated` (errors and no data, every error in `graphQLErrors`),
    ///   `.invalidResponse` (HTML, not JSON), `.status`, `.decoding`, transport kinds; or
    ///   `CancellationError`.
    public func fetch<Value: Decodable & Sendable>(
        _ operation: GraphQLOperation, variables: GraphQLVariables = [:], uploads: [String: GraphQLUpload] = [:],
        as type: Value.Type = Value.self, options: GraphQLRequestOptions = GraphQLRequestOptions()
    ) async throws -> GraphQLResponse<Value> {
        let request = try GraphQLRequest<Value>(
            operation: operation, variables: variables, uploads: uploads, options: options,
            settings: configuration.graphQL)
        return try await fetch(request)
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
    public func fetch<Value: Decodable & Sendable, Variables: Encodable & Sendable>(
        _ operation: GraphQLOperation, variables: Variables, uploads: [String: GraphQLUpload] = [:],
        as type: Value.Type = Value.self, options: GraphQLRequestOptions = GraphQLRequestOptions()
    ) async throws -> GraphQLResponse<Value> {
        let encoded = try GraphQLVariables(encoding: variables, options: configuration.jsonEncoding)
        return try await fetch(operation, variables: encoded, uploads: uploads, as: type, options: options)
    }

    /// Sends a request made in advance, following persisted queries when they are on.
    ///
    /// - Returns: the response, with the request sent last and the metrics of the last call.
    /// - Throws: as `fetch(_:variables:uploads:as:options:)`.
    public func fetch<Value>(_ request: GraphQLRequest<Value>) async throws -> GraphQLResponse<Value> {
        var request = request
        guard request.usesPersistedQuery else {
            request.persistedQueryStep = .textOnly
            return Self.merged(try await send(request))
        }
        request.persistedQueryStep = .hashOnly
        do {
            return Self.merged(try await send(request))
        } catch let error as GatewayError where error.kind == .persistedQueryNotFound {
            request.persistedQueryStep = .hashAndText
            return Self.merged(try await send(request))
        }
    }

    private static func merged<Value>(_ response: Response<GraphQLResponse<Value>>) -> GraphQLResponse<Value> {
        var value = response.value
        value.request = response.request
        value.metrics = response.metrics
        return value
    }
}
