import GraphQLLanguage

/// The answer to a GraphQL operation: its `data`, any `errors` that came with it (partial
/// data), and the response `extensions`, with the HTTP response they came in.
///
/// ```swift
/// let response = try await provider.fetch(operations["GetTrack"], variables: ["id": 42], as: GetTrack.self)
/// print(response.data.track?.title ?? "none")
/// for error in response.errors { print("partial:", error) }   // fields that failed came back null
/// ```
///
/// A response without data is never returned: it is thrown as a `GatewayError` of kind
/// `.graphQLErrors` (or `.unauthenticated`) carrying every error.
public struct GraphQLResponse<Value: Sendable>: Sendable {
    /// The decoded `data`.
    public var data: Value
    /// The errors that came with the data; empty for a complete answer.
    public var errors: [GraphQLError]
    /// The response's `extensions` (tracing, cost, …), when the server sent any.
    public var extensions: JSONObject?
    /// Whether an error means "not authenticated", by the provider's
    /// `GraphQLSettings.unauthenticated` predicate.
    public var isUnauthenticated: Bool
    /// The HTTP response the envelope came in.
    public var httpResponse: HTTPResponse
    /// The request as it was last sent; set by `Provider.fetch`, `Provider.send` and
    /// `Provider.task` (`nil` only in the `value` of a `Response` from a generic `Requestable`
    /// path, whose `Response` carries it).
    public var request: HTTPRequest?
    /// Timings, sizes and attempts of the call; set where `request` is.
    public var metrics: RequestMetrics
    /// Whether the operation went by its persisted-query hash, and whether the server had it.
    public var persistedQuery: PersistedQueryOutcome

    /// Creates a response.
    public init(
        data: Value, errors: [GraphQLError] = [], extensions: JSONObject? = nil, isUnauthenticated: Bool = false,
        httpResponse: HTTPResponse, request: HTTPRequest? = nil, metrics: RequestMetrics = RequestMetrics(),
        persistedQuery: PersistedQueryOutcome = .notUsed
    ) {
        self.data = data
        self.errors = errors
        self.extensions = extensions
        self.isUnauthenticated = isUnauthenticated
        self.httpResponse = httpResponse
        self.request = request
        self.metrics = metrics
        self.persistedQuery = persistedQuery
    }

    /// Whether errors came with the data (some fields are null because they failed).
    public var hasErrors: Bool { !errors.isEmpty }

    /// The HTTP status code.
    public var status: Int { httpResponse.status }
}

/// How an operation used automatic persisted queries.
public enum PersistedQueryOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The query text was sent; no hash.
    case notUsed
    /// Only the hash was sent, and the server knew it.
    case hit
    /// The server did not know the hash, so the text was sent with it.
    case registered

    /// `not used`, `hit` or `registered`.
    public var description: String {
        switch self {
        case .notUsed: "not used"
        case .hit: "hit"
        case .registered: "registered"
        }
    }
}
