import Foundation

/// A response whose body arrives while it is read: what `Provider.stream(_:)` returns once the
/// response head has been accepted.
///
/// The head (`status`, `headers`, `url`) is known at once; the body is this sequence's chunks,
/// or, read another way, `lines` of text or `serverSentEvents()`. Read it once. Leaving the
/// loop, dropping the stream or cancelling the reading task ends the exchange: the connection
/// is closed and nothing more is received.
///
/// ```swift
/// func printTicks(_ provider: Provider) async throws {
///     let stream = try await provider.stream(Endpoint<Data>.get("ticks"))
///     print(stream.status, stream.headers["Content-Type"] ?? "")
///     for try await event in stream.serverSentEvents() {
///         print(event.type, event.data)
///     }
/// }
/// ```
public struct ResponseStream: AsyncSequence, Sendable {
    public typealias Element = Data
    public typealias AsyncIterator = ResponseBody.AsyncIterator

    /// The status code (always 2xx: any other status is thrown as an error).
    public let status: Int
    /// The response header fields.
    public let headers: HTTPHeaders
    /// The URL that answered, after any redirects.
    public let url: URL?
    /// The request as it was last sent.
    public let request: HTTPRequest
    /// Timings and attempts of the call up to the accepted head (the body's own are in
    /// `body.metrics` once it has ended).
    public let metrics: RequestMetrics
    /// The body's bytes, after content decoding, as they arrive.
    public let body: ResponseBody

    /// The stream of `response`, whose body keeps `provider` (and so its transport) alive while
    /// it is read, when one is given.
    init(_ response: Response<ResponseBody>, of provider: Provider?) {
        status = response.status
        headers = response.httpResponse.headers
        url = response.httpResponse.url
        request = response.request
        metrics = response.metrics
        body = provider.map { ResponseBody(response.value, keepingAlive: $0) } ?? response.value
    }

    public func makeAsyncIterator() -> ResponseBody.AsyncIterator { body.makeAsyncIterator() }

    /// The body read as lines of UTF-8 text ended by CRLF, LF or CR (each at most 1 MiB; use
    /// `textLines(maxLineBytes:)` for another bound).
    public var lines: ReadChunks<ResponseBody, LineReader> { body.textLines() }
}
