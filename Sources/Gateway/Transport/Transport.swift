import Foundation

/// What sends an `HTTPRequest` and returns its response as it arrives: the one seam under the
/// pipeline.
///
/// A transport sends exactly the request it is given; auth, encoding, retries and caching are
/// the pipeline's. It returns once the response head has arrived, with the body as a
/// `ResponseBody` of decoded chunks; the pipeline reads that with `collect(upTo:)`, which
/// enforces `request.maxResponseBytes` whatever the transport does. A transport must honour
/// `request.timeout` and `request.deadline` while the body is read as well, follow redirects
/// only as `URLSessionTransport` documents, and end its exchange with `CancellationError` (or a
/// `GatewayError` of kind `.cancelled`) when the task that sends or reads is cancelled, or when
/// the body is dropped unread.
///
/// Implementing one, for a transport that has the whole body in hand:
/// ```swift
/// struct EchoTransport: Transport {
///     func send(_ request: HTTPRequest) async throws -> StreamedResponse {
///         StreamedResponse(HTTPResponse(status: 200, body: Data("ok".utf8), url: request.url))
///     }
/// }
/// ```
public protocol Transport: Sendable {
    /// Sends one request and returns the response once its head has arrived.
    ///
    /// - Parameter request: the encoded, adapted request.
    /// - Returns: the response head and its body as it arrives; any status code is a response,
    ///   not an error.
    /// - Throws: `GatewayError` of kind `.transport`, `.timeout`, `.responseTooLarge`,
    ///   `.redirectRefused`, `.tooManyRedirects` or `.cancelled`, or `CancellationError`; the
    ///   body's iterator throws the same kinds for failures after the head.
    func send(_ request: HTTPRequest) async throws -> StreamedResponse
}
