import Foundation

/// An HTTP response with its whole body: status, headers, body and the transport's metrics, as
/// `StreamedResponse.collect(upTo:)` reads it from a transport and as the pipeline's stages see it.
public struct HTTPResponse: Sendable, Hashable, CustomStringConvertible {
    /// The status code.
    public var status: Int
    /// The response header fields.
    public var headers: HTTPHeaders
    /// The body (empty when there was none).
    public var body: Data
    /// The URL that answered, after any redirects.
    public var url: URL?
    /// What the transport measured about this exchange.
    public var transportMetrics: TransportMetrics

    public init(
        status: Int,
        headers: HTTPHeaders = [:],
        body: Data = Data(),
        url: URL? = nil,
        transportMetrics: TransportMetrics = TransportMetrics()
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.transportMetrics = transportMetrics
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// `HTTP status` and the body size.
    public var description: String { "HTTP \(status) (\(body.count) bytes)" }
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
