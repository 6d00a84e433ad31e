/// Whether the store should talk to Redis now: closed (yes), open (no, until the retry time), or
/// probing (one call is finding out whether Redis is back; the others stay away).
///
/// One failure opens the circuit, so that an unreachable or slow Redis costs one timeout, not one
/// per request. Once the retry time has come, the next call probes: its success closes the
/// circuit, its failure opens it for another `retryAfter`.
package struct RedisCircuitBreaker: Sendable, Hashable {
    /// The breaker's phase.
    package enum Phase: Sendable, Hashable {
        case closed
        case open(until: ContinuousClock.Instant)
        case probing
    }

    package private(set) var phase = Phase.closed
    /// How long the circuit stays open after a failure.
    package let retryAfter: Duration

    package init(retryAfter: Duration) {
        self.retryAfter = retryAfter
    }

    /// Whether a call may go to Redis at `now`; a call let through once the retry time has come
    /// is the probe, and must report back with `succeeded`, `failed(at:)` or `abandoned(at:)`.
    package mutating func permits(at now: ContinuousClock.Instant) -> Bool {
        switch phase {
        case .closed:
            return true
        case .open(let until):
            guard now >= until else { return false }
            phase = .probing
            return true
        case .probing:
            return false
        }
    }

    /// A call got its replies: the circuit closes.
    package mutating func succeeded() { phase = .closed }

    /// A call found Redis unreachable or slow: the circuit opens for `retryAfter`.
    ///
    /// - Returns: whether this opened a closed circuit (the moment to warn).
    package mutating func failed(at now: ContinuousClock.Instant) -> Bool {
        let wasClosed = phase == .closed
        phase = .open(until: now + retryAfter)
        return wasClosed
    }

    /// A call ended without learning anything (it was cancelled): a probe lets the next call probe.
    package mutating func abandoned(at now: ContinuousClock.Instant) {
        if phase == .probing { phase = .open(until: now) }
    }
}
