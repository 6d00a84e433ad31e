/// What an interceptor decides a response (or a failed attempt) means.
public enum Decision: Sendable {
    /// No opinion: ask the next interceptor; after the last one, the endpoint's acceptable status
    /// codes decide (or the failure stands).
    case `continue`
    /// Send again, after the delay if one is given; the request is encoded again (step 5).
    /// Counted as an error retry (`RequestMetrics.retries`), within `Configuration.maxAttempts`.
    case retry(after: Duration?)
    /// Credentials changed: go back to the auth stage (step 4) and send again at once. Counted
    /// as an auth replay (`RequestMetrics.authReplays`), apart from error retries, within
    /// `Configuration.maxAuthReplays`.
    case replay
    /// End the request with this error.
    case fail(GatewayError)
    /// End the request with this response, which is decoded as a success (a recovered or
    /// substituted answer).
    case done(HTTPResponse)
}

/// Adapts outgoing requests and decides what responses mean: the pipeline's steps 6 and 8.
///
/// Interceptors run in the order configured. `adapt` runs on every attempt after encoding;
/// `decide` runs after every attempt, and the first decision other than `.continue` wins. Both
/// have pass-through defaults, so an interceptor implements only what it needs:
/// ```swift
/// struct APIKey: Interceptor {
///     let key: String
///     func adapt(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest {
///         var request = request
///         request.headers["X-API-Key"] = key
///         return request
///     }
/// }
///
/// struct RetryUnavailable: Interceptor {
///     func decide(_ response: HTTPResponse, for request: HTTPRequest,
///                 context: RequestContext) async throws -> Decision {
///         response.status == 503 && context.attempt < 3 ? .retry(after: .seconds(1)) : .continue
///     }
/// }
/// ```
/// An error thrown from an interceptor ends the request with a `GatewayError` of kind
/// `.intercepted` (a `GatewayError` thrown is kept as it is).
public protocol Interceptor: Sendable {
    /// Step 6: returns the request to send (changed or not).
    func adapt(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest

    /// Step 8: decides what a response means.
    func decide(_ response: HTTPResponse, for request: HTTPRequest, context: RequestContext) async throws -> Decision

    /// Step 8 for an attempt that failed without a response (a transport error or timeout):
    /// `.continue` lets the failure stand unless a later interceptor decides otherwise.
    func decide(_ failure: GatewayError, for request: HTTPRequest, context: RequestContext) async throws -> Decision
}

extension Interceptor {
    /// Sends the request unchanged.
    public func adapt(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest { request }

    /// Has no opinion.
    public func decide(_ response: HTTPResponse, for request: HTTPRequest, context: RequestContext) async throws
        -> Decision
    { .continue }

    /// Has no opinion.
    public func decide(_ failure: GatewayError, for request: HTTPRequest, context: RequestContext) async throws
        -> Decision
    { .continue }
}
