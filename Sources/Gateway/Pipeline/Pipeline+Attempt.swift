import Foundation

/// One attempt of the pipeline: steps 4 to 7 (see `Pipeline`).
extension Pipeline {
    /// How one attempt ended and what the interceptors decided about it.
    enum AttemptResult {
        case response(HTTPResponse, HTTPRequest, Decision)
        case failure(GatewayError, HTTPRequest, Decision)
    }

    /// Steps 4 to 7 for one attempt.
    @inline(never)
    func attempt(_ prepared: PreparedRequest, _ run: Run) async throws -> AttemptResult {
        // 4. Encode: never for a request that is already cancelled.
        try run.checkCancellation()
        try checkDeadline(run, before: "attempt \(run.context.attempt)")
        let encodingAt = ContinuousClock.now
        let encoded: HTTPRequest
        if let replayed = run.replayed {
            run.replayed = nil
            encoded = Self.replaying(replayed.request, encodedWith: replayed.preparedHeaders, as: prepared)
        } else {
            encoded = try encode(prepared, run)
        }
        run.metrics.encoding += ContinuousClock.now - encodingAt
        run.request = encoded
        // An attempt that asks for an auth replay leaves its body to the replay.
        var keepsBody = false
        defer { if !keepsBody { Self.removeTemporaryBody(of: encoded) } }
        let context = run.context
        notify { $0.requestEncoded(encoded, context: context) }

        // 5. Adapt.
        let adaptingAt = ContinuousClock.now
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
        defer { Self.removeTemporaryBody(of: request, unless: encoded) }
        try HeaderValidation.check(request.headers)

        // 6. Transport.
        try checkDeadline(run, before: "attempt \(run.context.attempt)")
        try await awaitConnectivity(for: request, run)
        let sent = request
        notify { $0.requestSent(sent, context: context) }
        run.metrics.attempts += 1
        let outcome: Result<HTTPResponse, GatewayError>
        let sendingAt = ContinuousClock.now
        do {
            let response: HTTPResponse
            if let interruptibleTransport {
                response = try await interruptibleTransport.send(request, interruption: run.interruption)
            } else {
                let transport = transport
                response = try await interruptibly(run.interruption) { try await transport.send(sent) }
            }
            // A transport slow to notice cancellation does not turn a cancelled call into a success.
            try run.checkCancellation()
            outcome = .success(response)
        } catch {
            if error is CancellationError || run.isCancelled { throw CancellationError() }
            outcome = .failure(
                error as? GatewayError ?? GatewayError(.transport, "the transport failed", underlying: error))
        }
        let sendingTime = ContinuousClock.now - sendingAt
        switch outcome {
        case .success(let response):
            run.metrics.transportAttempts.append(
                AttemptMetrics(number: run.context.attempt, duration: sendingTime, status: response.status))
        case .failure(let failure):
            run.metrics.transportAttempts.append(
                AttemptMetrics(number: run.context.attempt, duration: sendingTime, failure: failure.kind))
        }

        // 7. Decide.
        let decidingAt = ContinuousClock.now
        defer { run.metrics.interception += ContinuousClock.now - decidingAt }
        switch outcome {
        case .success(let response):
            run.response = response
            run.metrics.transport.append(response.transportMetrics)
            notify { $0.responseReceived(response, for: sent, context: context) }
            for interceptor in interceptors {
                let decision: Decision
                do {
                    decision = try await interceptor.decide(response, for: sent, context: context)
                } catch {
                    throw wrap(error, .intercepted, "an interceptor failed while deciding on the response")
                }
                if case .continue = decision { continue }
                if case .replay = decision {
                    run.replayed = (encoded, prepared.headers)
                    keepsBody = true
                }
                return .response(response, sent, decision)
            }
            return .response(response, sent, .continue)
        case .failure(let failure):
            var failure = failure
            if failure.request == nil { failure.request = sent }
            for interceptor in interceptors {
                let decision: Decision
                do {
                    decision = try await interceptor.decide(failure, for: sent, context: context)
                } catch {
                    throw wrap(error, .intercepted, "an interceptor failed while deciding on a failed attempt")
                }
                if case .continue = decision { continue }
                if case .replay = decision {
                    run.replayed = (encoded, prepared.headers)
                    keepsBody = true
                }
                return .failure(failure, sent, decision)
            }
            return .failure(failure, sent, .continue)
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
