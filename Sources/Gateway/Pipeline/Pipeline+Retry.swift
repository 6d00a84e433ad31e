import Foundation

/// Step 8's retry policy: whether, and after what delay, an attempt is sent again.
extension Pipeline {
    /// The retry policy's delay before another attempt after `response`, or `nil` for none.
    ///
    /// - Throws: `GatewayError` of kind `.timeout` when the delay (`Retry-After` or back-off)
    ///   would end past the call's deadline.
    func policyDelay(after response: HTTPResponse, _ prepared: PreparedRequest, _ call: Call) throws -> Duration? {
        let policy = configuration.retryPolicy
        guard policy.isRetryable(status: response.status), mayRetry(prepared, call) else { return nil }
        let answer = "the last answer was HTTP \(response.status)"
        if let retryAfter = policy.retryAfter(response, now: clock.date) {
            try checkDelay(retryAfter, "the server asked to wait \(retryAfter.seconds) s (Retry-After)", answer,
                           call, response: response)
            return retryAfter
        }
        let delay = policy.backoff(forRetry: call.metrics.retries + 1)
        try checkDelay(delay, "the back-off of \(delay.millisecondsText)", answer, call, response: response)
        return delay
    }

    /// The retry policy's delay before another attempt after a failure without a response.
    func policyDelay(after failure: GatewayError, _ prepared: PreparedRequest, _ call: Call) throws -> Duration? {
        let policy = configuration.retryPolicy
        guard policy.isRetryable(failure), mayRetry(prepared, call) else { return nil }
        if let deadline = call.context.deadline, clock.now >= deadline { return nil }
        let delay = policy.backoff(forRetry: call.metrics.retries + 1)
        try checkDelay(delay, "the back-off of \(delay.millisecondsText)", "the last attempt failed: \(failure.message)",
                       call, failure: failure)
        return delay
    }

    /// Whether the request may be sent again: its retryability, the policy's budget and the
    /// attempt limit.
    private func mayRetry(_ prepared: PreparedRequest, _ call: Call) -> Bool {
        let budget = min(configuration.retryPolicy.effectiveMaxRetries, attemptLimit - 1)
        return call.retryability.allowsRetry(of: prepared.method) && call.metrics.retries < budget
    }

    /// Fails at once when waiting `delay` would end past the deadline: a retry that cannot start
    /// before the deadline is not waited for.
    ///
    /// - Parameters:
    ///   - what: the delay's origin, such as "the back-off of 400 ms".
    ///   - last: how the last attempt ended, such as "the last answer was HTTP 503".
    private func checkDelay(_ delay: Duration, _ what: String, _ last: String, _ call: Call,
                            response: HTTPResponse? = nil, failure: GatewayError? = nil) throws {
        guard let deadline = call.context.deadline, clock.now + delay > deadline else { return }
        throw GatewayError(
            .timeout,
            "gave up after \(call.metrics.attempts) attempt(s): \(what) would end past \(call.deadlineName); \(last)",
            fix: Call.deadlineFix, response: response, underlying: failure)
    }
}
