/// Stores responses: the pipeline's step 9, after a successful decode.
///
/// The stage is offered every successful response with the request it answered and decides
/// itself what to keep. It cannot fail the request: a failed write is the stage's to report.
///
/// Implementing one:
/// ```swift
/// struct CountingCache: CacheStage {
///     let counter: Counter
///     func write(_ response: HTTPResponse, for request: HTTPRequest, prepared: PreparedRequest,
///                context: RequestContext) async {
///         counter.increment()
///     }
/// }
/// ```
public protocol CacheStage: Sendable {
    /// Offers a successful response for storage.
    func write(_ response: HTTPResponse, for request: HTTPRequest, prepared: PreparedRequest,
               context: RequestContext) async
}

/// The pass-through cache stage: stores nothing.
public struct NoCache: CacheStage {
    /// Creates the pass-through stage.
    public init() {}
    /// Stores nothing.
    public func write(_ response: HTTPResponse, for request: HTTPRequest, prepared: PreparedRequest,
                      context: RequestContext) async {}
}

extension CacheStage where Self == NoCache {
    /// Stores nothing.
    public static var none: NoCache { NoCache() }
}
