import Foundation

/// One attempt of the pipeline: steps 4 to 7 (see `Pipeline`).
extension Pipeline {
    /// Steps 4 to 7 for one attempt. The attempt's request, its response or failure and the
    /// interceptors' decision are left in `run`.
    @inline(never)
    func attempt(_ run: Run) async throws {
        try encodeAttempt(run)
        defer { endAttempt(run) }
        if !interceptors.isEmpty { try await adapt(run) }
        try checkAdapted(run)
        if configuration.reachability != nil { try await awaitConnectivity(run) }
        try await transmit(run)
        if interceptors.isEmpty {
            received(run)
        } else {
            try await decide(run)
        }
    }

    /// Step 4: a fresh request in `run.encoded` and `run.request`, encoded (or, after an auth
    /// replay, the replayed one); never for a request that is already cancelled.
    @inline(never)
    private func encodeAttempt(_ run: Run) throws {
        run.context.attempt += 1
        run.encoded = nil
        run.request = nil
        run.response = nil
        run.failure = nil
        run.decision = .continue
        run.keepsEncodedBody = false
        try run.checkCancellation()
        try checkDeadline(run, before: "attempt \(run.context.attempt)")
        let prepared = try run.authorizedRequest()
        let encodingAt = ContinuousClock.now
        let encoded: HTTPRequest
        if let replayed = run.replayed {
            run.replayed = nil
            encoded = Self.replaying(replayed.request, encodedWith: replayed.preparedHeaders, as: prepared)
        } else {
            encoded = try encode(prepared, run)
        }
        run.metrics.encoding += ContinuousClock.now - encodingAt
        run.encoded = encoded
        run.request = encoded
        notify { $0.requestEncoded(encoded, context: run.context) }
    }

    /// The end of an attempt: deletes the body files its encoders and interceptors created,
    /// except the one an auth replay sends again.
    @inline(never)
    private func endAttempt(_ run: Run) {
        guard let encoded = run.encoded else { return }
        if let request = run.request { Self.removeTemporaryBody(of: request, unless: encoded) }
        if !run.keepsEncodedBody { Self.removeTemporaryBody(of: encoded) }
    }

    /// Step 5: each interceptor's `adapt`, in order, into `run.request`.
    @inline(never)
    private func adapt(_ run: Run) async throws {
        let adaptingAt = ContinuousClock.now
        let encoded = try run.current()
        let context = run.context
        var request = encoded
        do {
            for interceptor in interceptors {
                request = try await interceptor.adapt(request, context: context)
            }
        } catch {
            Self.removeTemporaryBody(of: request, unless: encoded)
            throw wrap(error, .intercepted, "an interceptor failed while adapting the request")
        }
        run.metrics.interception += ContinuousClock.now - adaptingAt
        run.request = request
    }

    /// Before step 6: the adapted request's header fields and the deadline.
    @inline(never)
    private func checkAdapted(_ run: Run) throws {
        guard let headers = run.request?.headers else { throw run.missing("an encoded request") }
        try HeaderValidation.check(headers)
        try checkDeadline(run, before: "attempt \(run.context.attempt)")
    }

    /// Step 6: the transport's exchange, leaving its response or failure in `run`.
    @inline(never)
    private func transmit(_ run: Run) async throws {
        let request = try willSend(run)
        let sendingAt = ContinuousClock.now
        do {
            let transport = transport
            let response = try await interruptibly(run.interruption) {
                try await transport.send(request).collect(upTo: request.maxResponseBytes)
            }
            // A transport slow to notice cancellation does not turn a cancelled call into a success.
            try run.checkCancellation()
            sent(response, since: sendingAt, run)
        } catch {
            if error is CancellationError || run.isCancelled { throw CancellationError() }
            notSent(error, since: sendingAt, run)
        }
    }

    /// Step 6's start: the `sent` event; returns the request to send.
    @inline(never)
    private func willSend(_ run: Run) throws -> HTTPRequest {
        let request = try run.current()
        notify { $0.requestSent(request, context: run.context) }
        run.metrics.attempts += 1
        return request
    }

    /// Step 6's end with a response.
    @inline(never)
    private func sent(_ response: HTTPResponse, since sendingAt: ContinuousClock.Instant, _ run: Run) {
        run.metrics.transportAttempts.append(
            AttemptMetrics(number: run.context.attempt, duration: ContinuousClock.now - sendingAt,
                           status: response.status))
        run.response = response
    }

    /// Step 6's end without a response.
    @inline(never)
    private func notSent(_ error: any Error, since sendingAt: ContinuousClock.Instant, _ run: Run) {
        var failure = error as? GatewayError ?? GatewayError(.transport, "the transport failed", underlying: error)
        if failure.request == nil { failure.request = run.request }
        run.metrics.transportAttempts.append(
            AttemptMetrics(number: run.context.attempt, duration: ContinuousClock.now - sendingAt,
                           failure: failure.kind))
        run.failure = failure
    }

    /// Step 7's start: the response's metrics and the `received` event.
    @inline(never)
    private func received(_ run: Run) {
        guard let metrics = run.response?.transportMetrics else { return }
        run.metrics.transport.append(metrics)
        notify { observer in
            guard let response = run.response, let request = run.request else { return }
            observer.responseReceived(response, for: request, context: run.context)
        }
    }

    /// Step 7: each interceptor's `decide`, in order, until one says more than `.continue`,
    /// into `run.decision`.
    @inline(never)
    private func decide(_ run: Run) async throws {
        let decidingAt = ContinuousClock.now
        defer { run.metrics.interception += ContinuousClock.now - decidingAt }
        received(run)
        let decision = try await run.response != nil ? decideOnResponse(run) : decideOnFailure(run)
        decided(decision, run)
    }

    /// Step 7 for an attempt that has a response.
    @inline(never)
    private func decideOnResponse(_ run: Run) async throws -> Decision {
        let call = try InterceptorCall(run)
        guard let response = call.response else { throw run.missingOutcome() }
        do {
            for interceptor in interceptors {
                let decision = try await interceptor.decide(response, for: call.request, context: call.context)
                if case .continue = decision { continue }
                return decision
            }
            return .continue
        } catch {
            throw wrap(error, .intercepted, "an interceptor failed while deciding on the response")
        }
    }

    /// Step 7 for an attempt that failed without a response.
    @inline(never)
    private func decideOnFailure(_ run: Run) async throws -> Decision {
        let call = try InterceptorCall(run)
        guard let failure = call.failure else { throw run.missingOutcome() }
        do {
            for interceptor in interceptors {
                let decision = try await interceptor.decide(failure, for: call.request, context: call.context)
                if case .continue = decision { continue }
                return decision
            }
            return .continue
        } catch {
            throw wrap(error, .intercepted, "an interceptor failed while deciding on a failed attempt")
        }
    }

    /// Step 7's end: the decision, and the body an auth replay sends again.
    @inline(never)
    private func decided(_ decision: Decision, _ run: Run) {
        if case .replay = decision, let encoded = run.encoded, let prepared = run.authorized {
            run.replayed = (encoded, prepared.headers)
            run.keepsEncodedBody = true
        }
        run.decision = decision
    }

    /// What step 7 hands each interceptor, in one allocation rather than in the step's frame.
    private final class InterceptorCall {
        let request: HTTPRequest
        let response: HTTPResponse?
        let failure: GatewayError?
        let context: RequestContext

        @inline(never)
        init(_ run: Run) throws {
            request = try run.current()
            response = run.response
            failure = run.failure
            context = run.context
        }
    }

    /// Step 4 of an auth replay: the replayed attempt's URL, body and the header fields its
    /// encoders set (a multipart boundary, say), with the other header fields from `prepared`
    /// as the auth stage left it this time. The body goes again byte for byte.
    static func replaying(_ previous: HTTPRequest, encodedWith oldHeaders: HTTPHeaders, as prepared: PreparedRequest)
        -> HTTPRequest
    {
        let fromEncoders = Set(previous.headers.map { $0.name.lowercased() }.filter { name in
            oldHeaders.values(for: name) != previous.headers.values(for: name)
        })
        var headers = prepared.headers
        for name in fromEncoders { headers.remove(name) }
        for field in previous.headers where fromEncoders.contains(field.name.lowercased()) {
            headers.add(name: field.name, value: field.value)
        }
        var request = previous
        request.headers = headers
        return request
    }

    /// Step 4: a fresh `HTTPRequest` from the prepared one, parameters encoded in order.
    private func encode(_ prepared: PreparedRequest, _ run: Run) throws -> HTTPRequest {
        var request = HTTPRequest(
            method: prepared.method, url: prepared.url, headers: prepared.headers,
            timeout: prepared.timeout ?? configuration.timeout, deadline: run.context.deadline,
            maxResponseBytes: prepared.maxResponseBytes ?? configuration.maxResponseBytes)
        let context = ParameterEncodingContext(json: configuration.jsonEncoding, endpoint: prepared.name)
        do {
            for parameters in prepared.parameters {
                try parameters.encoder.encode(parameters.value, into: &request, context: context)
            }
        } catch {
            Self.removeTemporaryBody(of: request)
            throw wrap(error, .encoding, "the parameters could not be encoded")
        }
        return request
    }
}
