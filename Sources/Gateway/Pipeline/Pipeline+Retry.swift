import Foundation

/// Step 7's loop over attempts: interceptors' decisions, then the retry policy (see `Pipeline`).
extension Pipeline {
    /// How a series of attempts ended.
    enum Settled {
        /// A response to decode: in `run.response`, answering `run.request`.
        case accepted
        /// An interceptor asked for an auth replay: back to step 3.
        case replay
    }

    /// What follows one attempt.
    enum Next {
        case accepted
        case replay
        /// Another attempt, after the delay if there is one.
        case retry(after: Duration?)
    }

    /// Steps 4 to 7, repeated while the decision is to retry.
    @inline(never)
    func attempts(_ requestable: any Requestable, _ run: Run) async throws -> Settled {
        while true {
            try await attempt(run)
            switch try settle(requestable, run) {
            case .accepted: return .accepted
            case .replay: return .replay
            case .retry(let delay): try await waitToRetry(after: delay, run)
            }
        }
    }

    /// Step 7's end: what the interceptors' decision (`run.decision`), the retry policy and the
    /// requestable's validation make of the attempt in `run`. Synchronous, so that its copies
    /// stay out of the suspended steps' frames.
    @inline(never)
    private func settle(_ requestable: any Requestable, _ run: Run) throws -> Next {
        switch run.decision {
        case .continue:
            if let response = run.response {
                if let delay = try policyDelay(after: response, run) { return .retry(after: delay) }
                if var failure = requestable.validate(response, context: decodingContext) {
                    if run.metrics.attempts > 1 { failure.message += " (after \(run.metrics.attempts) attempts)" }
                    throw failure
                }
                return .accepted
            }
            guard var failure = run.failure else { throw run.missingOutcome() }
            if let delay = try policyDelay(after: failure, run) { return .retry(after: delay) }
            describeDeadline(in: &failure, run)
            if run.metrics.attempts > 1 { failure.message += " (after \(run.metrics.attempts) attempts)" }
            throw failure
        case .done(let response):
            run.response = response
            return .accepted
        case .fail(let failure):
            throw failure
        case .retry(let delay):
            let limit = min(max(1, configuration.maxAttempts), RetryPolicy.attemptLimit)
            guard run.metrics.retries + 1 < limit else {
                throw GatewayError(
                    .tooManyAttempts, "gave up after \(run.metrics.attempts) attempts",
                    fix: "the interceptors asked for more retries than Configuration.maxAttempts (\(limit)) allows",
                    response: run.response)
            }
            return .retry(after: delay)
        case .replay:
            guard run.metrics.authReplays < max(0, configuration.maxAuthReplays) else {
                throw GatewayError(
                    .authentication, "gave up after \(run.metrics.authReplays) auth replays",
                    fix: "the credentials were refused again after being renewed; check the auth stage",
                    response: run.response)
            }
            run.metrics.authReplays += 1
            notify { $0.requestReplayed(run.context) }
            return .replay
        }
    }

    /// The retry policy's delay before another attempt after `response`, or `nil` for none.
    ///
    /// - Throws: `GatewayError` of kind `.timeout` when the delay (`Retry-After` or back-off)
    ///   would end past the call's deadline.
    private func policyDelay(after response: HTTPResponse, _ run: Run) throws -> Duration? {
        let policy = configuration.retryPolicy
        guard policy.isRetryable(status: response.status), mayRetry(run) else { return nil }
        let answer = "the last answer was HTTP \(response.status)"
        if let retryAfter = policy.retryAfter(response, now: clock.date) {
            try checkDelay(retryAfter, "the server asked to wait \(retryAfter.seconds) s (Retry-After)", answer, run)
            return retryAfter
        }
        let delay = policy.backoff(forRetry: run.metrics.retries + 1)
        try checkDelay(delay, "the back-off of \(delay.millisecondsText)", answer, run)
        return delay
    }

    /// The retry policy's delay before another attempt after a failure without a response.
    private func policyDelay(after failure: GatewayError, _ run: Run) throws -> Duration? {
        let policy = configuration.retryPolicy
        guard policy.isRetryable(failure), mayRetry(run) else { return nil }
        if let deadline = run.context.deadline, clock.now >= deadline { return nil }
        let delay = policy.backoff(forRetry: run.metrics.retries + 1)
        try checkDelay(delay, "the back-off of \(delay.millisecondsText)", "the last attempt failed: \(failure.message)", run)
        return delay
    }

    /// Whether the request may be sent again: its retryability, the policy's budget and the
    /// attempt limit.
    private func mayRetry(_ run: Run) -> Bool {
        guard let method = run.authorized?.method else { return false }
        let limit = min(max(1, configuration.maxAttempts), RetryPolicy.attemptLimit)
        let budget = min(configuration.retryPolicy.effectiveMaxRetries, limit - 1)
        return run.retryability.allowsRetry(of: method) && run.metrics.retries < budget
    }

    /// Fails at once when waiting `delay` would end past the deadline: a retry that cannot start
    /// before the deadline is not waited for.
    ///
    /// - Parameters:
    ///   - what: the delay's origin, such as "the back-off of 400 ms".
    ///   - last: how the last attempt ended, such as "the last answer was HTTP 503".
    private func checkDelay(_ delay: Duration, _ what: String, _ last: String, _ run: Run) throws {
        guard let deadline = run.context.deadline, clock.now + delay > deadline else { return }
        throw GatewayError(
            .timeout,
            "gave up after \(run.metrics.attempts) attempt(s): \(what) would end past \(deadlineName(run)); \(last)",
            fix: deadlineFix, response: run.response, underlying: run.response == nil ? run.failure : nil)
    }

    /// `the call's deadline of 30 s`: how messages name the whole-call limit.
    func deadlineName(_ run: Run) -> String {
        run.deadlineBudget.map { "the call's deadline of \(GatewayError.readableSeconds($0))" } ?? "the call's deadline"
    }

    /// How to give a call more time.
    var deadlineFix: String {
        "raise the endpoint's `deadline` or Configuration.deadline (30 s by default), or check that the server answers"
    }

    /// Names the call's deadline in a timeout that the deadline caused (the transport only knows
    /// the instant it was given).
    private func describeDeadline(in failure: inout GatewayError, _ run: Run) {
        guard failure.kind == .timeout, let deadline = run.context.deadline, clock.now >= deadline else { return }
        let elapsed = clock.now - (deadline - (run.deadlineBudget ?? .zero))
        failure.message = "\(deadlineName(run)) passed after \(GatewayError.readableSeconds(elapsed)), during attempt "
            + "\(run.context.attempt), before the response was complete"
        failure.fix = deadlineFix
    }

    /// Counts the retry, tells observers and waits `delay` (on the configured clock).
    @inline(never)
    private func waitToRetry(after delay: Duration?, _ run: Run) async throws {
        notify { $0.requestRetried(after: delay, context: run.context) }
        run.metrics.retries += 1
        guard let delay, delay > .zero else { return }
        if let deadline = run.context.deadline, clock.now + delay > deadline {
            throw GatewayError(
                .timeout, "a retry after \(delay.millisecondsText) would pass \(deadlineName(run))",
                fix: deadlineFix, response: run.response)
        }
        let waitingAt = clock.now
        let clock = clock
        try await interruptibly(run.interruption) { try await clock.sleep(for: delay) }
        run.metrics.retryDelay += clock.now - waitingAt
    }
}
