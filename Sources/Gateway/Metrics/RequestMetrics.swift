/// Timings and sizes of one logical request, across all of its attempts: on every `Response`
/// and handed to observers when the request finishes (`Observer.requestFinished`).
///
/// Times come from a monotonic clock around each pipeline stage (the platform's
/// `URLSessionTaskMetrics` never arrive on Linux); `transport` keeps what the transport itself
/// measured for each attempt that got a response.
public struct RequestMetrics: Sendable, Hashable, CustomStringConvertible {
    /// How many times the request was handed to the transport.
    public var attempts: Int = 0
    /// How many of those were error retries (the retry policy, or an interceptor's `.retry`).
    public var retries: Int = 0
    /// How many were auth replays (an interceptor's `.replay`), counted apart from retries.
    public var authReplays: Int = 0
    /// Time spent waiting in the request queue.
    public var queued: Duration = .zero
    /// The part of `queued` spent held back by a `blocker` (a token refresh).
    public var heldByBlocker: Duration = .zero
    /// Time spent in the auth stage.
    public var authorization: Duration = .zero
    /// Time spent encoding, summed over attempts.
    public var encoding: Duration = .zero
    /// Time spent in interceptors (adapt and decide), summed over attempts.
    public var interception: Duration = .zero
    /// Time spent waiting for the network to become usable.
    public var waitingForConnectivity: Duration = .zero
    /// Time spent waiting between attempts.
    public var retryDelay: Duration = .zero
    /// Every transport attempt, failed ones included, as the pipeline measured it.
    public var transportAttempts: [AttemptMetrics] = []
    /// What the transport measured, one entry per attempt that got a response.
    public var transport: [TransportMetrics] = []
    /// Time spent decoding the value.
    public var decoding: Duration = .zero
    /// Time spent looking the request up in the cache.
    public var cacheLookup: Duration = .zero
    /// Time spent in the cache write stage.
    public var cacheWrite: Duration = .zero
    /// What the cache did for this request.
    public var cacheOutcome: CacheOutcome = .notConsulted
    /// The network path the reachability monitor reported for the last attempt; `nil` without
    /// a monitor.
    public var network: NetworkPath?
    /// From the start of `send` until it returned or threw.
    public var total: Duration = .zero

    /// Creates empty metrics.
    public init() {}

    /// Request body bytes sent over every attempt.
    public var bytesSent: Int64 { transport.reduce(0) { $0 + $1.bytesSent } }
    /// Response body bytes received over every attempt.
    public var bytesReceived: Int64 { transport.reduce(0) { $0 + $1.bytesReceived } }
    /// Time spent in the transport over every attempt.
    public var transportDuration: Duration { transportAttempts.reduce(.zero) { $0 + $1.duration } }

    /// One line for logs: `total 12.3 ms; queued 0.1 ms (blocker 0 ms); …; attempts 1; 0 B sent, 628 B received`.
    public var description: String {
        var parts = ["total \(total.millisecondsText)", "queued \(queued.millisecondsText)"]
        if heldByBlocker > .zero { parts[1] += " (held by blocker \(heldByBlocker.millisecondsText))" }
        parts.append("auth \(authorization.millisecondsText)")
        parts.append("encode \(encoding.millisecondsText)")
        if waitingForConnectivity > .zero { parts.append("waiting for network \(waitingForConnectivity.millisecondsText)") }
        let each = transportAttempts.map(\.duration.millisecondsText).joined(separator: ", ")
        parts.append("transport \(each.isEmpty ? "none" : each)")
        if retryDelay > .zero { parts.append("retry delay \(retryDelay.millisecondsText)") }
        parts.append("decode \(decoding.millisecondsText)")
        parts.append("cache \(cacheOutcome)")
        var attemptsText = "attempts \(attempts)"
        if retries > 0 { attemptsText += " (\(retries) retr\(retries == 1 ? "y" : "ies"))" }
        if authReplays > 0 { attemptsText += " (\(authReplays) auth replay\(authReplays == 1 ? "" : "s"))" }
        parts.append(attemptsText)
        parts.append("\(bytesSent) B sent, \(bytesReceived) B received")
        if let network { parts.append("network \(network)") }
        return parts.joined(separator: "; ")
    }
}

/// One transport attempt as the pipeline measured it.
public struct AttemptMetrics: Sendable, Hashable {
    /// The attempt number, from 1.
    public var number: Int
    /// From handing the request to the transport until it returned or threw.
    public var duration: Duration
    /// The response status, when a response came.
    public var status: Int?
    /// The failure's kind, when the attempt failed without a response.
    public var failure: GatewayError.Kind?

    /// Creates the metrics of one attempt.
    public init(number: Int, duration: Duration, status: Int? = nil, failure: GatewayError.Kind? = nil) {
        self.number = number
        self.duration = duration
        self.status = status
        self.failure = failure
    }
}

/// What the cache did for a request: an open set, so cache stages can add their own outcomes.
public struct CacheOutcome: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The outcome's name.
    public let rawValue: String
    /// Creates an outcome.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// No cache was asked (the default cache stage stores nothing).
    public static let notConsulted = CacheOutcome(rawValue: "not consulted")
    /// Answered from the cache without the network.
    public static let hit = CacheOutcome(rawValue: "hit")
    /// Not in the cache; the network answered.
    public static let miss = CacheOutcome(rawValue: "miss")
    /// The network's answer was stored.
    public static let stored = CacheOutcome(rawValue: "stored")

    /// The name.
    public var description: String { rawValue }
}
