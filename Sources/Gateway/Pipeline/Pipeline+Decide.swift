import Foundation

/// Step 8: what an attempt means (see `Pipeline`).
extension Pipeline {
    /// Step 8: the interceptors, in order, until one says more than `.continue`; then the
    /// persisted-query follow-up; then the retry policy; then the requestable's validation.
    ///
    /// - Parameter revalidating: whether a `304` answers a stored entry's validators.
    /// - Throws: the error that ends the request, with the attempt's request and response.
    func decide(_ attempt: Attempt, _ prepared: PreparedRequest, _ requestable: any Requestable, revalidating: Bool,
                _ call: inout Call) async throws -> Verdict {
        do {
            return try await verdict(attempt, prepared, requestable, revalidating: revalidating, &call)
        } catch let failure as GatewayError {
            throw attempt.filled(failure)
        }
    }

    private func verdict(_ attempt: Attempt, _ prepared: PreparedRequest, _ requestable: any Requestable,
                         revalidating: Bool, _ call: inout Call) async throws -> Verdict {
        if !interceptors.isEmpty {
            switch try await interceptorsDecide(attempt, &call) {
            case .continue:
                break
            case .done(let response):
                return .accept(response)
            case .fail(let failure):
                throw failure
            case .retry(let delay):
                let limit = attemptLimit
                guard call.metrics.retries + 1 < limit else {
                    throw GatewayError(
                        .tooManyAttempts, "gave up after \(call.metrics.attempts) attempts",
                        fix: "the interceptors asked for more retries than Configuration.maxAttempts (\(limit)) allows",
                        response: attempt.response)
                }
                return .retry(after: delay)
            case .replay:
                guard call.metrics.authReplays < max(0, configuration.maxAuthReplays) else {
                    throw GatewayError(
                        .authentication, "gave up after \(call.metrics.authReplays) auth replays",
                        fix: "the credentials were refused again after being renewed; check the auth stage",
                        response: attempt.response)
                }
                call.metrics.authReplays += 1
                let context = call.context
                notify { $0.requestReplayed(context) }
                return .replay
            }
        }
        switch attempt.outcome {
        case .response(let response):
            if PersistedQueryStage.asksForText(response, sent: prepared) { return .followUp }
            if let delay = try policyDelay(after: response, prepared, call) { return .retry(after: delay) }
            if revalidating, response.status == 304 { return .accept(response) }
            var context = decodingContext
            context.persistedQuery = prepared.persistedQueryUse
            if var failure = requestable.validate(response, context: context) {
                if call.metrics.attempts > 1 { failure.message += " (after \(call.metrics.attempts) attempts)" }
                throw failure
            }
            return .accept(response)
        case .failure(var failure):
            if let delay = try policyDelay(after: failure, prepared, call) { return .retry(after: delay) }
            describeDeadline(in: &failure, call)
            if call.metrics.attempts > 1 { failure.message += " (after \(call.metrics.attempts) attempts)" }
            throw failure
        }
    }

    /// The interceptors' decision: the first that is not `.continue` (called only when there
    /// are interceptors).
    private func interceptorsDecide(_ attempt: Attempt, _ call: inout Call) async throws -> Decision {
        let deciding = Stopwatch.start()
        defer { call.metrics.interception += deciding.elapsed }
        let context = call.context
        do {
            for interceptor in interceptors {
                let decision: Decision
                switch attempt.outcome {
                case .response(let response):
                    decision = try await interceptor.decide(response, for: attempt.sent, context: context)
                case .failure(let failure):
                    decision = try await interceptor.decide(failure, for: attempt.sent, context: context)
                }
                if case .continue = decision { continue }
                return decision
            }
            return .continue
        } catch {
            let what = attempt.response == nil ? "a failed attempt" : "the response"
            throw wrap(error, .intercepted, "an interceptor failed while deciding on \(what)")
        }
    }

    /// The most attempts a request makes.
    var attemptLimit: Int { min(max(1, configuration.maxAttempts), RetryPolicy.attemptLimit) }

    /// Counts the retry, tells observers and waits `delay` (on the configured clock).
    func waitToRetry(after delay: Duration?, _ call: inout Call) async throws {
        let context = call.context
        notify { $0.requestRetried(after: delay, context: context) }
        call.metrics.retries += 1
        guard let delay, delay > .zero else { return }
        if let deadline = call.context.deadline, clock.now + delay > deadline {
            throw GatewayError(.timeout, "a retry after \(delay.millisecondsText) would pass \(call.deadlineName)",
                               fix: Call.deadlineFix)
        }
        let waitingAt = clock.now
        try await clock.sleep(for: delay)
        call.metrics.retryDelay += clock.now - waitingAt
    }

    /// Names the call's deadline in a timeout that the deadline caused (the transport only knows
    /// the instant it was given).
    private func describeDeadline(in failure: inout GatewayError, _ call: Call) {
        guard failure.kind == .timeout, let deadline = call.context.deadline, clock.now >= deadline else { return }
        let elapsed = clock.now - (deadline - (call.budget ?? .zero))
        failure.message = "\(call.deadlineName) passed after \(GatewayError.readableSeconds(elapsed)), during attempt "
            + "\(call.context.attempt), before the response was complete"
        failure.fix = Call.deadlineFix
    }
}
