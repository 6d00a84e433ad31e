import Foundation
import GraphQLLanguage

/// A GraphQL operation with its variables, ready for the pipeline: the `Requestable` that
/// `Provider.fetch` sends. Making one checks the variables, so a request that exists is one
/// whose variables fit the operation.
///
/// - Build (step 1): the endpoint URL (`GraphQLSettings.path` joined to the base URL), POST (or
///   GET for a query when asked), `Accept: application/graphql-response+json, application/json`,
///   the payload for the GraphQL encoder, and the retryability: a query may be sent again, a
///   mutation only with an idempotency key.
/// - Validate (end of step 8): a 2xx response is accepted; a failed status with a GraphQL error
///   body is thrown with those errors, any other with its status.
/// - Decode (step 9): the envelope; errors without data are thrown, data with errors is a
///   `GraphQLResponse` carrying both.
///
/// ```swift
/// let request = try GraphQLRequest<JSONValue>(operation: operations["GetTrack"], variables: ["id": "t1"])
/// let response = try await provider.send(request)
/// print(response.data, response.metrics.total)
/// ```
/// `JSONValue`, the data as plain JSON, needs `import GraphQLLanguage`.
/// `Provider.send`, `Provider.fetch` and `Provider.task` send it alike: with the provider's
/// `GraphQLSettings` unless the request was given its own, persisted queries (the hash first,
/// the text only when the server does not know it) when those settings or the request's options
/// turn them on, and a `GraphQLResponse` with the request sent last and the metrics.
public struct GraphQLRequest<Decoded: Decodable & Sendable>: Requestable {
    /// The decoded value: the response envelope.
    public typealias Value = GraphQLResponse<Decoded>

    /// What a request sends when persisted queries are on.
    enum PersistedQueryStep: Sendable {
        /// The text; no hash.
        case textOnly
        /// The hash, without the text.
        case hashOnly
        /// The hash with the text, so that the server stores it.
        case hashAndText
    }

    /// The operation.
    public let operation: GraphQLOperation
    /// The variables to send: checked, with defaults applied, upload placeholders `null`.
    public let variables: JSONObject
    /// The files of an upload, in the order of their parts.
    public let uploads: [GraphQLPayload.Upload]
    /// This request's settings.
    public var options: GraphQLRequestOptions
    /// The provider-wide settings in force: the ones given to `init`, or else (and until set)
    /// the provider's that sends the request (its `Configuration.graphQL`).
    public var settings: GraphQLSettings {
        didSet { followsProviderSettings = false }
    }
    /// Whether the pipeline puts the sending provider's settings in place of `settings`.
    var followsProviderSettings: Bool

    /// Checks `variables` against `operation` and makes the request.
    ///
    /// - Parameters:
    ///   - operation: the operation.
    ///   - variables: the variables; declared defaults fill absent ones.
    ///   - uploads: files keyed by the variable path they fill (`image`, or `files.0` for an
    ///     element of a list of files: give the list, with placeholders, in `variables`).
    ///   - options: this request's settings.
    ///   - settings: the provider-wide settings; `nil` takes those of the provider that sends
    ///     the request (path, persisted queries, GET, what means "not authenticated").
    /// - Throws: `GatewayError` of kind `.invalidVariables` naming every variable that does not
    ///   fit; nothing is sent then.
    public init(operation: GraphQLOperation, variables: GraphQLVariables = [:],
                uploads: [String: GraphQLUpload] = [:], options: GraphQLRequestOptions = GraphQLRequestOptions(),
                settings: GraphQLSettings? = nil) throws {
        var given = variables
        let slots = Self.slots(uploads)
        for slot in slots { try Self.placeholder(at: slot.path, in: &given, operation: operation) }
        self.operation = operation
        self.variables = try operation.checkedVariables(given, uploads: Set(uploads.keys))
        self.uploads = slots
        self.options = options
        self.settings = settings ?? GraphQLSettings()
        followsProviderSettings = settings == nil
    }

    /// Makes a request whose variables need no checking (a generated operation's typed ones);
    /// each upload's place already holds `null`.
    init(operation: GraphQLOperation, uncheckedVariables variables: JSONObject, uploads: [GraphQLPayload.Upload],
         options: GraphQLRequestOptions, settings: GraphQLSettings?) {
        self.operation = operation
        self.variables = variables
        self.uploads = uploads
        self.options = options
        self.settings = settings ?? GraphQLSettings()
        followsProviderSettings = settings == nil
    }

    /// `query GetTrack`.
    public var name: String { operation.description }

    /// Whether the provider's or this request's settings turn persisted queries on for it
    /// (never for uploads).
    var usesPersistedQuery: Bool {
        (options.persistedQueries ?? settings.persistedQueries).isEnabled && uploads.isEmpty
    }

    /// Whether `query` carries the normalized text: when the settings say so, except for a
    /// generated operation, whose `Data` types were made for its own text.
    private var sendsNormalizedText: Bool { settings.sendsNormalizedText && !operation.isGenerated }

    /// The text `query` carries.
    var queryText: String { sendsNormalizedText ? operation.normalizedText : operation.text }

    /// The SHA-256 of `queryText`: the persisted-query hash.
    var queryHash: String { sendsNormalizedText ? operation.normalizedTextHash : operation.textHash }

    /// The payload with the query text (the form sent without persisted queries).
    public var payload: GraphQLPayload { payload(.textOnly) }

    /// The payload for a persisted-query step.
    func payload(_ persistedQueryStep: PersistedQueryStep) -> GraphQLPayload {
        var extensions = options.extensions
        if persistedQueryStep != .textOnly {
            extensions["persistedQuery"] = PersistedQueryProtocol.extensionValue(hash: queryHash)
        }
        return GraphQLPayload(
            query: persistedQueryStep == .hashOnly ? nil : queryText, operationName: operation.name,
            variables: variables, extensions: extensions, uploads: uploads,
            cacheKeyOperation: operation.cacheKeyOperation)
    }

    /// The HTTP method: GET for a query when asked (hash-only queries by the persisted-query
    /// setting too), POST otherwise.
    func method(_ persistedQueryStep: PersistedQueryStep) -> HTTPMethod {
        guard operation.kind == .query, uploads.isEmpty else { return .post }
        let get = options.usesGET ?? settings.usesGETForQueries
        if persistedQueryStep == .hashOnly {
            return get || (options.persistedQueries ?? settings.persistedQueries).usesGETForHashedQueries ? .get : .post
        }
        return get ? .get : .post
    }

    /// The GraphQL endpoint URL for `baseURL`.
    public func endpointURL(baseURL: URL) throws -> URL {
        try PathJoining.join(base: baseURL, path: settings.path)
    }

    /// The cache key of this request: the same with and without persisted queries, by POST or GET.
    ///
    /// - Parameters:
    ///   - baseURL: the provider's base URL.
    ///   - partition: whose data it is.
    public func cacheKey(baseURL: URL, partition: CachePartition) throws -> CacheKey {
        payload.cacheKey(endpoint: try endpointURL(baseURL: baseURL), partition: partition)
    }

    /// Step 1: the endpoint, method, headers, payload and retryability.
    ///
    /// - Throws: `GatewayError` of kind `.invalidRequest` for a path that cannot be joined, or
    ///   a subscription (which `Provider.subscribe` sends).
    public func prepare(baseURL: URL) throws -> PreparedRequest {
        try preparedForms(baseURL: baseURL)
    }

    /// Step 1 for one persisted-query step.
    func prepared(_ persistedQueryStep: PersistedQueryStep, baseURL: URL) throws -> PreparedRequest {
        guard operation.kind != .subscription else {
            throw GatewayError(.invalidRequest, "\(operation) is a subscription, which a single HTTP response "
                                   + "cannot carry", fix: "subscribe to it with Provider.subscribe")
        }
        var headers: HTTPHeaders = ["Accept": "application/graphql-response+json, application/json;q=0.9"]
        let method = method(persistedQueryStep)
        if method == .get || !uploads.isEmpty, let operationName = operation.name {
            // A GET or a multipart POST is a "simple" request to a browser; servers that guard
            // against cross-site requests (Apollo Server's CSRF prevention) want this header.
            headers["X-Apollo-Operation-Name"] = operationName
        }
        headers.merge(options.headers)
        let retryability: Retryability
        switch operation.kind {
        case .query: retryability = .idempotent
        default:
            if let key = options.idempotencyKey {
                headers[settings.idempotencyKeyHeader] = key
                retryability = .idempotent
            } else {
                retryability = .never
            }
        }
        let url = try endpointURL(baseURL: baseURL)
        var prepared = PreparedRequest(
            name: name, method: method, url: url, headers: headers,
            parameters: [RequestParameters(payload(persistedQueryStep), encoder: GraphQLParameterEncoder())],
            requiresAuthentication: options.requiresAuthentication, priority: options.priority,
            timeout: options.timeout, deadline: options.deadline, maxResponseBytes: options.maxResponseBytes,
            retryability: retryability)
        prepared.cache = options.cache
        prepared.graphQLCache = GraphQLCacheIdentity(
            operation: operation.cacheKeyOperation, variables: variables, endpoint: url.absoluteString,
            isQuery: operation.kind == .query && uploads.isEmpty)
        return prepared
    }

    /// `nil` for a 2xx response. A failed status with a GraphQL error body is an error carrying
    /// those errors (a request for an unknown persisted-query hash is `.persistedQueryNotFound`);
    /// any other failed status is a `.status` error.
    public func validate(_ response: HTTPResponse, context: ResponseDecodingContext) -> GatewayError? {
        guard !response.isSuccess else { return nil }
        if let envelope = try? GraphQLEnvelope.read(response, operation: name), !envelope.errors.isEmpty {
            if context.persistedQuery == .hit, PersistedQueryProtocol.asksForText(envelope.errors) {
                return notFound(response, envelope.errors)
            }
            return GraphQLEnvelope.failure(envelope.errors, operation: name, response: response,
                                           unauthenticated: settings.unauthenticated)
        }
        var failure = GatewayError(
            .status, "expected 2xx, got \(HTTPStatus.describe(response.status))",
            fix: Endpoint<Empty>.fix(forStatus: response.status, authenticated: options.requiresAuthentication),
            response: response)
        if let note = ErrorBodySummary.htmlNote(response, expected: "a GraphQL response") {
            failure.message += "; " + note
        }
        return failure
    }

    /// Step 9: the envelope, with `data` decoded as `Decoded`.
    ///
    /// - Throws: `GatewayError` of kind `.graphQLErrors` or `.unauthenticated` for errors
    ///   without data, `.invalidResponse` for a body that is not a GraphQL response, and
    ///   `.decoding` when `data` does not decode (naming the coding path, with any GraphQL errors
    ///   that came with it).
    public func decode(_ response: HTTPResponse, context: ResponseDecodingContext) throws -> GraphQLResponse<Decoded> {
        let envelope = try read(response, context)
        if envelope.hasNoData, !envelope.errors.isEmpty {
            if context.persistedQuery == .hit, PersistedQueryProtocol.asksForText(envelope.errors) {
                throw notFound(response, envelope.errors)
            }
            throw GraphQLEnvelope.failure(envelope.errors, operation: name, response: response,
                                          unauthenticated: settings.unauthenticated)
        }
        let data: Decoded
        switch envelope.data {
        case .success(let decoded): data = decoded
        case .failure(let error): throw undecodable(error, envelope.errors, response)
        }
        return GraphQLResponse(
            data: data, errors: envelope.errors, extensions: envelope.extensions,
            isUnauthenticated: settings.unauthenticated.matchesAny(envelope.errors), httpResponse: response,
            persistedQuery: context.persistedQuery)
    }

    /// The body, parsed once: as `JSONValue` when that is what `data` decodes as, else by the
    /// provider's `JSONDecoder` straight into `Decoded`. A body that is not a GraphQL response
    /// is described by `GraphQLEnvelope.read`.
    private func read(_ response: HTTPResponse, _ context: ResponseDecodingContext) throws
        -> GraphQLTypedEnvelope<Decoded>
    {
        if Decoded.self == JSONValue.self {
            let envelope = try GraphQLEnvelope.read(response, operation: name)
            if let data = (envelope.data ?? .null) as? Decoded {
                return GraphQLTypedEnvelope(data: .success(data), hasNoData: envelope.hasNoData,
                                            errors: envelope.errors, extensions: envelope.extensions)
            }
        }
        do {
            return try context.json.makeDecoder().decode(GraphQLTypedEnvelope<Decoded>.self, from: response.body)
        } catch {
            _ = try GraphQLEnvelope.read(response, operation: name)
            throw GatewayError(.invalidResponse, "the response to \(name) is not a GraphQL response",
                               fix: "check that the server speaks GraphQL over HTTP", response: response,
                               underlying: error)
        }
    }

    /// The error for `data` that does not decode as `Decoded`, with any GraphQL errors that came with it.
    private func undecodable(_ error: any Error, _ errors: [GraphQLError], _ response: HTTPResponse) -> GatewayError {
        var message = "could not decode the data of \(name) as \(Decoded.self)"
        if let decodingError = error as? DecodingError {
            message += ": " + Redaction.describe(decodingError: decodingError)
        }
        if !errors.isEmpty {
            message += "; the response also has \(errors.count) GraphQL error"
                + "\(errors.count == 1 ? "" : "s") (fields that failed are null): "
                + GraphQLEnvelope.summary(errors)
        }
        return GatewayError(
            .decoding, message,
            fix: "make \(Decoded.self) match the operation's selection (an optional property for a field that "
                + "may be null), or decode as JSONValue", response: response,
            apiError: errors.isEmpty ? nil : errors, underlying: error)
    }

    private func notFound(_ response: HTTPResponse, _ errors: [GraphQLError]) -> GatewayError {
        GatewayError(.persistedQueryNotFound, "the server does not know the persisted query hash of \(name)",
                     fix: "send the query text with the hash (Provider.fetch does)", response: response,
                     apiError: errors)
    }
}
