import Foundation

/// A fully built HTTP request as a transport sends it: the output of the encode and adapt stages.
///
/// A value type; stages return changed copies. `description` and `dump()` never show token material:
/// sensitive headers and query items print as `<redacted>`.
public struct HTTPRequest: Sendable, Hashable, CustomStringConvertible {
    /// Where the body comes from.
    public enum Body: Sendable, Hashable {
        /// Bytes held in memory.
        case data(Data)
        /// A file streamed from disk (large multipart bodies). `removeAfterSending` marks a
        /// temporary file the pipeline deletes when the request is finished.
        case file(URL, length: Int64, removeAfterSending: Bool)

        /// The number of bytes in the body.
        public var length: Int64 {
            switch self {
            case .data(let data): Int64(data.count)
            case .file(_, let length, _): length
            }
        }
    }

    public var method: HTTPMethod {
        get { held.fields.method }
        set { unique().fields.method = newValue }
    }
    public var url: URL {
        get { held.fields.url }
        set { unique().fields.url = newValue }
    }
    /// Held in the request itself, not with the other fields: the auth stage and interceptors
    /// change them, and a copy of the other fields is not made for that.
    public var headers: HTTPHeaders
    public var body: Body? {
        get { held.fields.body }
        set { unique().fields.body = newValue }
    }
    /// The longest wait for any single network activity (connect, the first byte, the next
    /// chunk). `nil` uses the transport's default.
    public var timeout: Duration? {
        get { held.fields.timeout }
        set { unique().fields.timeout = newValue }
    }
    /// The instant by which the whole call (every attempt and redirect) must end.
    public var deadline: ContinuousClock.Instant? {
        get { held.fields.deadline?.instant }
        set { unique().fields.deadline = newValue.map(InstantOffset.init) }
    }
    /// The largest response body accepted; a larger body ends the call with
    /// `GatewayError.Kind.responseTooLarge` instead of being held.
    public var maxResponseBytes: Int {
        get { held.fields.maxResponseBytes }
        set { unique().fields.maxResponseBytes = newValue }
    }
    /// Where the transport reports the body's bytes sent so far, when someone watches them (an
    /// upload's progress); `nil` for most requests.
    public var bodyProgress: BodyProgress? {
        get { held.fields.bodyProgress }
        set { unique().fields.bodyProgress = newValue }
    }

    /// The fields other than the headers, in one reference that copies share until one of them
    /// changes them: a request passed from step to step retains two objects, not each field.
    private var held: Held

    /// The default response size limit: 10 MiB.
    public static let defaultMaxResponseBytes = 10 * 1024 * 1024

    public init(
        method: HTTPMethod,
        url: URL,
        headers: HTTPHeaders = [:],
        body: Body? = nil,
        timeout: Duration? = nil,
        deadline: ContinuousClock.Instant? = nil,
        maxResponseBytes: Int = HTTPRequest.defaultMaxResponseBytes
    ) {
        self.init(method: method, url: url, headers: headers, body: body, timeout: timeout,
                  deadlineOffset: deadline.map(InstantOffset.init), maxResponseBytes: maxResponseBytes)
    }

    /// A request whose deadline is given as held (see `InstantOffset`): the pipeline's async
    /// steps make requests without ever holding a `ContinuousClock.Instant`.
    init(method: HTTPMethod, url: URL, headers: HTTPHeaders, body: Body? = nil, timeout: Duration? = nil,
         deadlineOffset: InstantOffset?, maxResponseBytes: Int = HTTPRequest.defaultMaxResponseBytes) {
        self.headers = headers
        held = Held(Fields(method: method, url: url, body: body, timeout: timeout,
                           deadline: deadlineOffset, maxResponseBytes: maxResponseBytes))
    }

    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.headers == rhs.headers && (lhs.held === rhs.held || lhs.held.fields == rhs.held.fields)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(headers)
        hasher.combine(held.fields)
    }

    /// The fields, copied first when another request shares them.
    private mutating func unique() -> Held {
        if !isKnownUniquelyReferenced(&held) { held = Held(held.fields) }
        return held
    }

    private struct Fields: Hashable {
        var method: HTTPMethod
        var url: URL
        var body: Body?
        var timeout: Duration?
        /// `deadline` as a value of fixed size (see `InstantOffset`).
        var deadline: InstantOffset?
        var maxResponseBytes: Int
        var bodyProgress: BodyProgress?
    }

    /// A request's fields. Changed only through `unique()`, when no other request shares them,
    /// so a shared instance is never written (what makes it safe to send).
    private final class Held: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    /// The scheme, host and port that the request goes to.
    public var origin: Origin? { Origin(url) }

    /// `METHOD url` with sensitive query items redacted.
    public var description: String { "\(method) \(Redaction.redactedURL(url))" }
}

/// The scheme, host and port of a URL: the unit of trust for tokens and redirects.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int

    /// The origin of `url`, or `nil` when it has no scheme or host.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else {
            return nil
        }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
    }

    public var description: String { "\(scheme)://\(host):\(port)" }

    /// Whether `url` and `other` have the same origin (and `url` has one).
    ///
    /// Two URLs whose text agrees up to the end of the authority (`scheme://host:port`) share
    /// their origin, which the usual case (a request to its own base URL) settles by bytes;
    /// otherwise their origins are compared.
    static func isSame(_ url: URL, as other: URL) -> Bool {
        var text = url.absoluteString, otherText = other.absoluteString
        let sameText = text.withUTF8 { bytes in
            otherText.withUTF8 { otherBytes in SchemeSeparator.sameAuthority(bytes, otherBytes) }
        }
        if sameText { return true }
        guard let origin = Origin(url) else { return false }
        return origin == Origin(other)
    }
}
