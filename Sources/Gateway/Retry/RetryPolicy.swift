import Foundation

/// When and how soon the pipeline sends a failed request again: the last word of the decide
/// stage (step 8), after the interceptors.
///
/// - **Budget.** `maxRetries` more attempts (2 by default); never more than 5 attempts in all,
///   whatever is configured, and never past the call's deadline.
/// - **Back-off.** Exponential from `initialDelay` (0.5 s), multiplied by `multiplier` (2) per
///   retry, capped at `maxDelay` (30 s), with full jitter: the delay is drawn uniformly between
///   zero and that bound, from `random`.
/// - **What is retried.** Responses with a status in `retryableStatuses` (408, 429, 500, 502,
///   503, 504), and transport failures that mean the exchange may not have happened: timed out,
///   connection lost, cannot connect, cannot find the host, DNS failure, not connected. Never:
///   cancellation, TLS and certificate failures, bad URLs, too many redirects, refused
///   redirects, responses too large, decode errors.
/// - **Which requests.** Only those whose `Retryability` allows it: by default the idempotent
///   methods; GraphQL queries; mutations with an idempotency key.
/// - **`Retry-After`.** On a retryable response, the header's delay (seconds or an HTTP date) is
///   used instead of the back-off, clamped to `0...maxRetryAfter` (60 s); an invalid value is
///   ignored. A delay that would end past the call's deadline fails the call at once.
///
/// ```swift
/// let provider = Provider(baseURL: api) { config in
///     config.retryPolicy = RetryPolicy(maxRetries: 3, initialDelay: .milliseconds(200))
/// }
/// ```
public struct RetryPolicy: Sendable {
    /// How the back-off bound becomes a delay.
    public enum Jitter: Sendable, Hashable {
        /// Uniform between zero and the bound ("full jitter").
        case full
        /// Exactly the bound.
        case none
    }

    /// The most attempts any request makes, whatever is configured.
    public static let attemptLimit = 5
    /// The statuses retried by default.
    public static let defaultRetryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// The transport error codes retried (`URLError.Code` raw values): timed out, connection
    /// lost, cannot connect, cannot find host, DNS lookup failed, not connected. A connection
    /// closed or reset without a response (`URLError.unknown` on Linux) counts as lost.
    public static let retryableErrorCodes: Set<Int> = [
        URLError.Code.timedOut.rawValue, URLError.Code.networkConnectionLost.rawValue,
        URLError.Code.cannotConnectToHost.rawValue, URLError.Code.cannotFindHost.rawValue,
        URLError.Code.dnsLookupFailed.rawValue, URLError.Code.notConnectedToInternet.rawValue,
        URLError.Code.unknown.rawValue,
    ]

    /// Further attempts after the first (values below 0 count as 0; at most 4).
    public var maxRetries: Int
    /// The back-off bound of the first retry.
    public var initialDelay: Duration
    /// What each further retry multiplies the bound by.
    public var multiplier: Double
    /// The largest back-off bound.
    public var maxDelay: Duration
    /// How the bound becomes a delay.
    public var jitter: Jitter
    /// The response statuses worth another attempt.
    public var retryableStatuses: Set<Int>
    /// The longest `Retry-After` honoured; longer values are clamped to it.
    public var maxRetryAfter: Duration
    /// A number in `0..<1` for the jitter; replace it to make delays predictable in tests.
    public var random: @Sendable () -> Double

    /// Creates a policy; the defaults are the documented ones.
    public init(
        maxRetries: Int = 2,
        initialDelay: Duration = .milliseconds(500),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(30),
        jitter: Jitter = .full,
        retryableStatuses: Set<Int> = RetryPolicy.defaultRetryableStatuses,
        maxRetryAfter: Duration = .seconds(60),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.maxRetries = maxRetries
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.retryableStatuses = retryableStatuses
        self.maxRetryAfter = maxRetryAfter
        self.random = random
    }

    /// A policy that never retries.
    public static var none: RetryPolicy { RetryPolicy(maxRetries: 0) }

    /// The default policy with `count` retries.
    public static func retries(_ count: Int) -> RetryPolicy { RetryPolicy(maxRetries: count) }

    /// The retries allowed, within the hard limit of 5 attempts.
    public var effectiveMaxRetries: Int { min(max(0, maxRetries), Self.attemptLimit - 1) }

    /// The back-off bound before retry number `retry` (from 1): `initialDelay × multiplier^(retry−1)`,
    /// at most `maxDelay`.
    public func backoffBound(forRetry retry: Int) -> Duration {
        let base = max(0, initialDelay.seconds)
        let factor = pow(max(1, multiplier.isFinite ? multiplier : 1), Double(max(0, retry - 1)))
        return .seconds(clamping: min(base * factor, max(0, maxDelay.seconds)))
    }

    /// The delay before retry number `retry` (from 1), jitter applied.
    public func backoff(forRetry retry: Int) -> Duration {
        let bound = backoffBound(forRetry: retry)
        switch jitter {
        case .none:
            return bound
        case .full:
            let draw = random()
            let unit = draw.isFinite ? min(max(draw, 0), 1) : 0
            return .seconds(clamping: bound.seconds * unit)
        }
    }

    /// Whether a response with this status is worth another attempt.
    public func isRetryable(status: Int) -> Bool { retryableStatuses.contains(status) }

    /// Whether a failed attempt (no response) is worth another attempt.
    public func isRetryable(_ failure: GatewayError) -> Bool {
        switch failure.kind {
        case .timeout:
            return true
        case .transport:
            guard let code = Self.errorCode(of: failure) else { return false }
            return Self.retryableErrorCodes.contains(code)
        default:
            return false
        }
    }

    /// The `Retry-After` delay of a response, clamped to `0...maxRetryAfter`; `nil` when the
    /// header is missing or invalid.
    ///
    /// - Parameter now: the current wall-clock date, for the HTTP-date form.
    public func retryAfter(_ response: HTTPResponse, now: Date) -> Duration? {
        guard let value = response.headers["Retry-After"], let delay = RetryAfter.delay(value, now: now) else {
            return nil
        }
        return min(delay, max(.zero, maxRetryAfter))
    }

    /// The `URLError` code underneath a transport failure, if any.
    static func errorCode(of failure: GatewayError) -> Int? {
        var error: (any Error)? = failure.underlying
        for _ in 0..<8 {
            guard let current = error else { return nil }
            if let urlError = current as? URLError { return urlError.code.rawValue }
            if let gateway = current as? GatewayError {
                error = gateway.underlying
                continue
            }
            let nsError = current as NSError
            return nsError.domain == NSURLErrorDomain ? nsError.code : nil
        }
        return nil
    }
}

extension RetryPolicy: CustomStringConvertible {
    /// `2 retries, back-off 0.5 s ×2 up to 30 s, full jitter`.
    public var description: String {
        "\(effectiveMaxRetries) retries, back-off \(initialDelay.seconds) s ×\(multiplier) up to \(maxDelay.seconds) s, "
            + (jitter == .full ? "full jitter" : "no jitter")
    }
}
