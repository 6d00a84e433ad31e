/// What sends an `HTTPRequest` and returns its `HTTPResponse`: the one seam under the pipeline.
///
/// A transport sends exactly the request it is given; auth, encoding, retries and caching are
/// the pipeline's. It must honour `request.timeout`, `request.deadline` and
/// `request.maxResponseBytes`, follow redirects only as `URLSessionTransport` documents, and
/// end with `CancellationError` (or a `GatewayError` of kind `.cancelled`) when its task is
/// cancelled.
///
/// Implementing one:
/// ```swift
/// struct EchoTransport: Transport {
///     func send(_ request: HTTPRequest) async throws -> HTTPResponse {
///         HTTPResponse(status: 200, body: Data("ok".utf8), url: request.url)
///     }
/// }
/// ```
public protocol Transport: Sendable {
    /// Sends one request and returns the whole response.
    ///
    /// - Parameter request: the encoded, adapted request.
    /// - Returns: the response with its full body; any status code is a response, not an error.
    /// - Throws: `GatewayError` of kind `.transport`, `.timeout`, `.responseTooLarge`,
    ///   `.redirectRefused`, `.tooManyRedirects` or `.cancelled`, or `CancellationError`.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}
