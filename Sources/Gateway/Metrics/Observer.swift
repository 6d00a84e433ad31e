/// How a request ended, as observers see it.
public enum RequestOutcome: Sendable {
    /// Decoded successfully from this response.
    case success(HTTPResponse)
    /// Failed with this error.
    case failure(GatewayError)
    /// Cancelled.
    case cancelled
}

/// Sees every lifecycle event of every request and changes nothing.
///
/// Events arrive in pipeline order for each request: `enqueued`, `dequeued`, then per attempt
/// `encoded`, `sent`, `received` (when a response came) and `retried` or `replayed` (before the
/// next attempt), and `finished` exactly once, whatever happened. The methods are synchronous and
/// run on the request's task: keep them quick (hand heavy work to your own queue). Every method
/// has an empty default:
/// ```swift
/// struct StatusLogger: Observer {
///     func requestFinished(_ outcome: RequestOutcome, metrics: RequestMetrics, context: RequestContext) {
///         print(context.name, outcome, metrics.total)
///     }
/// }
/// ```
public protocol Observer: Sendable {
    /// The request entered the queue (step 3).
    func requestEnqueued(_ context: RequestContext)
    /// The request left the queue and proceeds (step 3).
    func requestDequeued(_ context: RequestContext)
    /// The request was encoded for an attempt (step 5).
    func requestEncoded(_ request: HTTPRequest, context: RequestContext)
    /// The request, adapted by the interceptors, was handed to the transport (step 7).
    func requestSent(_ request: HTTPRequest, context: RequestContext)
    /// A response arrived (step 7).
    func responseReceived(_ response: HTTPResponse, for request: HTTPRequest, context: RequestContext)
    /// Another attempt follows after `delay` (step 8); `context.attempt` is the attempt that ended.
    func requestRetried(after delay: Duration?, context: RequestContext)
    /// The request goes back to the auth stage for an auth replay (step 8); `context.attempt`
    /// is the attempt that ended.
    func requestReplayed(_ context: RequestContext)
    /// The request ended; called exactly once per request.
    func requestFinished(_ outcome: RequestOutcome, metrics: RequestMetrics, context: RequestContext)
}

extension Observer {
    /// Does nothing.
    public func requestEnqueued(_ context: RequestContext) {}
    /// Does nothing.
    public func requestDequeued(_ context: RequestContext) {}
    /// Does nothing.
    public func requestEncoded(_ request: HTTPRequest, context: RequestContext) {}
    /// Does nothing.
    public func requestSent(_ request: HTTPRequest, context: RequestContext) {}
    /// Does nothing.
    public func responseReceived(_ response: HTTPResponse, for request: HTTPRequest, context: RequestContext) {}
    /// Does nothing.
    public func requestRetried(after delay: Duration?, context: RequestContext) {}
    /// Does nothing.
    public func requestReplayed(_ context: RequestContext) {}
    /// Does nothing.
    public func requestFinished(_ outcome: RequestOutcome, metrics: RequestMetrics, context: RequestContext) {}
}
