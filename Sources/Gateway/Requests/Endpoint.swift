import Foundation

/// A REST endpoint that carries the type of its response.
///
/// A plain value: building one does no work and cannot fail. The path is joined to the
/// provider's base URL, and parameters are encoded, only when the endpoint is sent (the
/// pipeline's build and encode stages), so a bad path or parameter surfaces as a clear
/// `GatewayError` from `send`.
///
/// ```swift
/// let user = try await provider.send(Endpoint<User>.get("users/42")).value
/// let login = Endpoint<Session>.post("login", body: credentials, encoder: .json)
///     .apiError(APIProblem.self)
/// let avatar = Endpoint<Data>.get("users/42/avatar")
/// let remove = Endpoint<Empty>.delete("users/42")
/// ```
public struct Endpoint<Value: Sendable>: Sendable, CustomStringConvertible {
    /// The request method.
    public var method: HTTPMethod
    /// The path relative to the provider's base URL; see `pathOptions` for what it may do.
    public var path: String
    /// Whether the path may use dot segments or be an absolute URL; neither by default.
    public var pathOptions: PathOptions
    /// Query items sent as given (in this order, RFC 3986 escaped), before any encoded parameters.
    public var query: [URLQueryItem]
    /// Header fields; they replace the provider's default headers of the same names.
    public var headers: HTTPHeaders
    /// Parameters with their encoders, applied in order in the encode stage.
    public var parameters: [RequestParameters]
    /// The status codes that count as success; `200..<300` by default.
    public var acceptableStatusCodes: StatusCodes
    /// How an accepted response becomes the value.
    public var decoding: ResponseDecoding<Value>
    /// How the body of a failed response is decoded into `GatewayError.apiError`, if at all.
    public var apiErrorDecoding: APIErrorDecoding?
    /// Whether the auth stage attaches credentials; `true` by default.
    public var requiresAuthentication: Bool
    /// The dispatch priority in the request queue.
    public var priority: RequestPriority
    /// The longest wait for any single network activity; the provider's default when `nil`.
    public var timeout: Duration?
    /// The longest the whole call (every attempt) may take from the start of `send`; the
    /// provider's default when `nil`.
    public var deadline: Duration?
    /// The largest response body accepted; the provider's default when `nil`.
    public var maxResponseBytes: Int?
    /// A name for errors and observers; `METHOD path` when `nil`.
    public var label: String?
    /// Whether the retry policy may send the endpoint again; by its method by default (see
    /// `idempotencyKey(_:)` for a POST that may be retried).
    public var retryability: Retryability = .automatic
    /// Whether the request waits for the network to become usable; the provider's setting when `nil`.
    public var waitsForConnectivity: Bool?
    /// How the request uses the response cache: policy, time to live, tags (GET only).
    public var cache = CacheSettings()

    /// Creates an endpoint; the static factories (`.get`, `.post`, …) cover the common cases.
    public init(
        method: HTTPMethod,
        path: String,
        query: [URLQueryItem] = [],
        headers: HTTPHeaders = [:],
        parameters: [RequestParameters] = [],
        decoding: ResponseDecoding<Value>,
        acceptableStatusCodes: StatusCodes = .success,
        apiErrorDecoding: APIErrorDecoding? = nil,
        requiresAuthentication: Bool = true,
        priority: RequestPriority = .medium,
        timeout: Duration? = nil,
        deadline: Duration? = nil,
        maxResponseBytes: Int? = nil,
        pathOptions: PathOptions = [],
        label: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.parameters = parameters
        self.decoding = decoding
        self.acceptableStatusCodes = acceptableStatusCodes
        self.apiErrorDecoding = apiErrorDecoding
        self.requiresAuthentication = requiresAuthentication
        self.priority = priority
        self.timeout = timeout
        self.deadline = deadline
        self.maxResponseBytes = maxResponseBytes
        self.pathOptions = pathOptions
        self.label = label
    }

    /// The name used in errors and by observers: the label, or `METHOD path` (an absolute URL
    /// path shown without its user info).
    public var name: String { label ?? method.rawValue + " " + Self.displayed(path) }

    /// The path as names show it: an absolute URL redacted like every URL Gateway prints.
    private static func displayed(_ path: String) -> String {
        // An empty path is the base URL itself: say so rather than leave the name blank.
        if path.isEmpty { return "(the base URL)" }
        guard SchemeSeparator.end(in: path) != nil, let url = URL(string: path), url.scheme != nil else { return path }
        return Redaction.redactedURL(url)
    }

    /// The endpoint's name.
    public var description: String { name }

    /// A copy whose failed responses have their body decoded as `E` into `GatewayError.apiError`.
    ///
    /// - Parameters:
    ///   - type: the API's error body type.
    ///   - options: JSON settings; the provider's when `nil`.
    public func apiError<E: Decodable & Sendable>(_ type: E.Type, options: JSONDecodingOptions? = nil) -> Endpoint {
        var copy = self
        copy.apiErrorDecoding = .json(type, options: options)
        return copy
    }

    /// A copy changed by `change`: `.get("feed").with { $0.timeout = .seconds(5) }`.
    public func with(_ change: (inout Endpoint) -> Void) -> Endpoint {
        var copy = self
        change(&copy)
        return copy
    }

    /// A copy that carries `key` in `header` on every attempt and may therefore be retried
    /// whatever its method (a POST that creates something, say).
    ///
    /// ```swift
    /// let order = Endpoint<Order>.post("orders", body: draft).idempotencyKey(UUID().uuidString)
    /// ```
    public func idempotencyKey(_ key: String, header: String = "Idempotency-Key") -> Endpoint {
        var copy = self
        copy.headers[header] = key
        copy.retryability = .idempotent
        return copy
    }

    /// A copy with one more header field (replacing fields of the same name).
    public func header(_ name: String, _ value: String) -> Endpoint {
        var copy = self
        copy.headers[name] = value
        return copy
    }
}
