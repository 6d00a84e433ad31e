import Foundation

/// Anything the pipeline can send: a REST `Endpoint`, and (with the GraphQL layer) an operation.
///
/// The pipeline asks a requestable three things, at fixed steps: how to build the request
/// (step 1), whether a response that no interceptor settled is a success (step 8), and
/// how to decode a successful one (step 9). Everything else — queue, auth, encoding,
/// interceptors, transport, retries, cache, metrics — is the pipeline's and the same for every
/// kind of request.
///
/// Implementing one:
/// ```swift
/// struct Ping: Requestable {
///     var name: String { "ping" }
///     func prepare(baseURL: URL) throws -> PreparedRequest {
///         PreparedRequest(name: name, method: .get, url: try PreparedRequest.url(baseURL, "ping"))
///     }
///     func validate(_ response: HTTPResponse, context: ResponseDecodingContext) -> GatewayError? {
///         response.isSuccess ? nil : GatewayError(.status, "ping failed", response: response)
///     }
///     func decode(_ response: HTTPResponse, context: ResponseDecodingContext) throws -> Empty { Empty() }
/// }
/// ```
public protocol Requestable: Sendable {
    /// The type of the decoded value.
    associatedtype Value: Sendable

    /// The name used in errors and by observers.
    var name: String { get }

    /// Step 1: builds the request to send, without encoding its parameters.
    ///
    /// - Parameter baseURL: the provider's base URL.
    /// - Throws: `GatewayError` of kind `.invalidRequest` for a path or URL that cannot be used.
    func prepare(baseURL: URL) throws -> PreparedRequest

    /// Step 1 with the provider's GraphQL settings, for a requestable that follows them (a
    /// GraphQL request made without settings of its own). The default ignores them and calls
    /// `prepare(baseURL:)`.
    func prepare(baseURL: URL, graphQL: GraphQLSettings) throws -> PreparedRequest

    /// Step 8: the error a response means when no interceptor decided otherwise, or `nil`
    /// when it is a success.
    func validate(_ response: HTTPResponse, context: ResponseDecodingContext) -> GatewayError?

    /// Step 9: decodes a successful response.
    ///
    /// - Throws: `GatewayError` of kind `.decoding`.
    func decode(_ response: HTTPResponse, context: ResponseDecodingContext) throws -> Value
}

extension Requestable {
    /// Calls `prepare(baseURL:)`.
    public func prepare(baseURL: URL, graphQL: GraphQLSettings) throws -> PreparedRequest {
        try prepare(baseURL: baseURL)
    }
}

/// A request built but not yet encoded: the output of the build stage (step 1), changed by the
/// auth stage (step 4) and turned into an `HTTPRequest` by the encode stage (step 5) on every
/// attempt.
///
/// Its parameters stay unencoded values with their encoders, so a retry encodes them again and
/// a request cancelled before step 5 never runs an encoder.
public struct PreparedRequest: Sendable, CustomStringConvertible, CustomReflectable {
    /// The endpoint or operation name.
    public var name: String
    /// The request method.
    public var method: HTTPMethod
    /// The full URL, with any fixed query items (encoded parameters are added in step 5).
    public var url: URL
    /// The header fields (the provider's defaults are merged under them after step 1).
    public var headers: HTTPHeaders
    /// Parameters with their encoders, applied in order in step 5.
    public var parameters: [RequestParameters]
    /// Whether the auth stage attaches credentials.
    public var requiresAuthentication: Bool
    /// The dispatch priority.
    public var priority: RequestPriority
    /// The longest wait for any single network activity; the provider's default when `nil`.
    public var timeout: Duration?
    /// The budget of the whole call from the start of `send`; the provider's default when `nil`.
    public var deadline: Duration?
    /// The largest response body accepted; the provider's default when `nil`.
    public var maxResponseBytes: Int?
    /// Whether the retry policy may send the request again (by default: when the method is
    /// idempotent). A GraphQL query sets `.idempotent`; a mutation sets `.idempotent` only when
    /// it carries an idempotency key in `headers` (the same on every attempt), else `.never`.
    public var retryability: Retryability
    /// Whether the request waits for the network to become usable; the provider's setting when `nil`.
    public var waitsForConnectivity: Bool?
    /// How the request uses the response cache (`Configuration.cache` set to a `ResponseCache`).
    public var cache = CacheSettings()
    /// For a GraphQL operation: what its cache key is made of, and whether it is a query.
    package var graphQLCache: GraphQLCacheIdentity?
    /// For a GraphQL operation sent by its persisted-query hash alone: the form that sends the
    /// text with the hash, which step 8 turns to when the server does not know the hash.
    package var persistedQueryFollowUp: PersistedQueryFollowUp?
    /// Whether the request is sent by a persisted-query hash: `.hit` for the hash alone,
    /// `.registered` for the hash with the text.
    package var persistedQueryUse = PersistedQueryOutcome.notUsed
    /// Where step 7 puts the response's body: in memory, or a download's file.
    var responseBody = BodyDestination.memory
    /// Where the transport reports the body's bytes sent, for an upload (step 5 passes it on).
    var bodyProgress: BodyProgress?

    /// Creates a prepared request.
    public init(
        name: String, method: HTTPMethod, url: URL, headers: HTTPHeaders = [:],
        parameters: [RequestParameters] = [], requiresAuthentication: Bool = true,
        priority: RequestPriority = .medium, timeout: Duration? = nil, deadline: Duration? = nil,
        maxResponseBytes: Int? = nil, retryability: Retryability = .automatic, waitsForConnectivity: Bool? = nil
    ) {
        self.retryability = retryability
        self.waitsForConnectivity = waitsForConnectivity
        self.name = name
        self.method = method
        self.url = url
        self.headers = headers
        self.parameters = parameters
        self.requiresAuthentication = requiresAuthentication
        self.priority = priority
        self.timeout = timeout
        self.deadline = deadline
        self.maxResponseBytes = maxResponseBytes
    }

    /// Joins `path` to `baseURL` by the safe rules of `Endpoint` paths.
    ///
    /// - Throws: `GatewayError` of kind `.invalidRequest` for a path that would leave the base
    ///   URL or contains `?` or `#`.
    public static func url(_ baseURL: URL, _ path: String, options: PathOptions = []) throws -> URL {
        try PathJoining.join(base: baseURL, path: path, options: options)
    }

    /// `METHOD url` with sensitive query items redacted.
    public var description: String { "\(method) \(Redaction.redactedURL(url))" }

    /// Shows no header values or parameter values, only their names and encoders.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "name": name,
            "method": method.rawValue,
            "url": Redaction.redactedURL(url),
            "headers": headers.description,
            "parameters": parameters.map { String(describing: type(of: $0.encoder)) },
            "requiresAuthentication": requiresAuthentication,
            "priority": priority.description,
            "retryability": retryability.description,
        ], displayStyle: .struct)
    }
}
