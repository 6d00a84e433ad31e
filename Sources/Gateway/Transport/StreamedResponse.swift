import Foundation

/// A response as a transport returns it: the head at once, the body as it arrives.
///
/// `Transport.send(_:)` returns one when the response head has arrived; the body's chunks
/// follow through `body`. The pipeline reads the whole body with `collect(upTo:)`, which stops
/// the exchange as soon as the body passes the request's size limit.
///
/// A transport that has the whole body in hand makes one from an `HTTPResponse`:
/// ```swift
/// let streamed = StreamedResponse(HTTPResponse(status: 200, body: Data("ok".utf8)))
/// ```
public struct StreamedResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The response header fields.
    public var headers: HTTPHeaders
    /// The URL that answered, after any redirects.
    public var url: URL?
    /// The body's bytes, after content decoding, as they arrive; read it once.
    public var body: ResponseBody

    /// Creates a response from its head and a body.
    ///
    /// - Parameters:
    ///   - status: the status code.
    ///   - headers: the response header fields.
    ///   - url: the URL that answered, after any redirects.
    ///   - body: the body's chunks and, once they have all arrived, the exchange's metrics.
    public init(status: Int, headers: HTTPHeaders = [:], url: URL? = nil, body: ResponseBody = ResponseBody(Data())) {
        self.status = status
        self.headers = headers
        self.url = url
        self.body = body
    }

    /// Creates a response whose body is `response`'s whole body, in one chunk, with
    /// `response.transportMetrics` as its metrics.
    ///
    /// - Parameter response: the whole response.
    public init(_ response: HTTPResponse) {
        self.init(
            status: response.status, headers: response.headers, url: response.url,
            body: ResponseBody(response.body, metrics: response.transportMetrics))
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
