/// Timings and sizes of one logical request, across all of its attempts.
///
/// Times come from a monotonic clock around each pipeline stage; `transport` holds what the
/// transport measured for each attempt.
public struct RequestMetrics: Sendable, Hashable {
    /// How many times the request was handed to the transport.
    public var attempts: Int = 0
    /// Time spent waiting in the request queue.
    public var queued: Duration = .zero
    /// Time spent in the auth stage.
    public var authorization: Duration = .zero
    /// Time spent encoding, summed over attempts.
    public var encoding: Duration = .zero
    /// Time spent in interceptors (adapt and decide), summed over attempts.
    public var interception: Duration = .zero
    /// Time spent waiting between attempts.
    public var retryDelay: Duration = .zero
    /// What the transport measured, one entry per attempt that got a response.
    public var transport: [TransportMetrics] = []
    /// Time spent decoding the value.
    public var decoding: Duration = .zero
    /// Time spent in the cache write stage.
    public var cacheWrite: Duration = .zero
    /// From the start of `send` until it returned or threw.
    public var total: Duration = .zero

    /// Creates empty metrics.
    public init() {}

    /// Request body bytes sent over every attempt.
    public var bytesSent: Int64 { transport.reduce(0) { $0 + $1.bytesSent } }
    /// Response body bytes received over every attempt.
    public var bytesReceived: Int64 { transport.reduce(0) { $0 + $1.bytesReceived } }
    /// Time spent in the transport over every attempt.
    public var transportDuration: Duration { transport.reduce(.zero) { $0 + $1.duration } }
}
