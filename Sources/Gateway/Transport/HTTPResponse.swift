import Foundation

/// An HTTP response with its whole body: status, headers, body and the transport's metrics, as
/// `StreamedResponse.collect(upTo:)` reads it from a transport and as the pipeline's stages see it.
///
/// A value like any other. Its fields sit in one reference that copies share until one of them
/// is changed (then that copy gets fields of its own), so passing a response from step to step
/// retains one object rather than each of its fields.
public struct HTTPResponse: Sendable, Hashable, CustomStringConvertible {
    /// The status code.
    public var status: Int {
        get { held.fields.status }
        set { unique().fields.status = newValue }
    }
    /// The response header fields.
    public var headers: HTTPHeaders {
        get { held.fields.headers }
        set { unique().fields.headers = newValue }
    }
    /// The body (empty when there was none).
    public var body: Data {
        get { held.fields.body }
        set { unique().fields.body = newValue }
    }
    /// The URL that answered, after any redirects.
    public var url: URL? {
        get { held.fields.url }
        set { unique().fields.url = newValue }
    }
    /// What the transport measured about this exchange.
    public var transportMetrics: TransportMetrics {
        get { held.fields.transportMetrics }
        set { unique().fields.transportMetrics = newValue }
    }

    private var held: Held

    public init(
        status: Int,
        headers: HTTPHeaders = [:],
        body: Data = Data(),
        url: URL? = nil,
        transportMetrics: TransportMetrics = TransportMetrics()
    ) {
        held = Held(Fields(status: status, headers: headers, body: body, url: url,
                           transportMetrics: transportMetrics))
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// `HTTP status` and the body size.
    public var description: String { "HTTP \(status) (\(body.count) bytes)" }

    public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
        lhs.held === rhs.held || lhs.held.fields == rhs.held.fields
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(held.fields) }

    /// The fields, copied first when another response shares them.
    private mutating func unique() -> Held {
        if !isKnownUniquelyReferenced(&held) { held = Held(held.fields) }
        return held
    }

    private struct Fields: Hashable {
        var status: Int
        var headers: HTTPHeaders
        var body: Data
        var url: URL?
        var transportMetrics: TransportMetrics
    }

    /// A response's fields. Changed only through `unique()`, when no other response shares
    /// them, so a shared instance is never written (what makes it safe to send).
    private final class Held: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }
}

/// Timings and sizes of one transport exchange (one attempt, including its redirects).
public struct TransportMetrics: Sendable, Hashable {
    /// From handing the request to the transport until the whole body arrived.
    public var duration: Duration
    /// Until the response headers arrived, where the transport knows it.
    public var timeToFirstByte: Duration?
    /// Bytes of request body sent.
    public var bytesSent: Int64
    /// Bytes of response body received (after decompression).
    public var bytesReceived: Int64
    /// How many redirects were followed.
    public var redirects: Int
    /// Whether the numbers came from the platform (`URLSessionTaskMetrics`) rather than our own clock.
    public var fromPlatform: Bool

    public init(
        duration: Duration = .zero,
        timeToFirstByte: Duration? = nil,
        bytesSent: Int64 = 0,
        bytesReceived: Int64 = 0,
        redirects: Int = 0,
        fromPlatform: Bool = false
    ) {
        self.duration = duration
        self.timeToFirstByte = timeToFirstByte
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.redirects = redirects
        self.fromPlatform = fromPlatform
    }
}
