/// What `send` returns: the decoded value, the HTTP response it came from, the request as it was
/// last sent, and the request's metrics.
public struct Response<Value: Sendable>: Sendable {
    /// The decoded value.
    public let value: Value
    /// The final HTTP response (after retries).
    public let httpResponse: HTTPResponse
    /// The request as the transport last sent it.
    public let request: HTTPRequest
    /// Timings, sizes and attempts of the whole call.
    public let metrics: RequestMetrics

    /// Creates a response.
    public init(value: Value, httpResponse: HTTPResponse, request: HTTPRequest, metrics: RequestMetrics) {
        self.value = value
        self.httpResponse = httpResponse
        self.request = request
        self.metrics = metrics
    }

    /// The HTTP status code.
    public var status: Int { httpResponse.status }

    /// The same response with its value transformed.
    public func map<T: Sendable>(_ transform: (Value) throws -> T) rethrows -> Response<T> {
        Response<T>(value: try transform(value), httpResponse: httpResponse, request: request, metrics: metrics)
    }
}
