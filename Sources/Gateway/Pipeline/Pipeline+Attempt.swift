import Foundation

/// Steps 5 to 7 of one attempt: encode, adapt, transport (see `Pipeline`).
extension Pipeline {
    /// Steps 5 to 7: the request encoded (or, after an auth replay, the replayed body with this
    /// authorization), adapted and sent.
    func attempt(_ prepared: PreparedRequest, replaying replayed: Attempt?, _ call: inout Call) async throws
        -> Attempt
    {
        call.context.attempt += 1
        // 5. Encode.
        try Task.checkCancellation()
        try checkDeadlineBeforeAttempt(call)
        let encoded = try encode(prepared, replaying: replayed, &call)

        // 6. Adapt.
        var sent = encoded
        do {
            if !interceptors.isEmpty { sent = try await adapt(encoded, &call) }
            try HeaderValidation.check(sent.headers)
            try checkDeadlineBeforeAttempt(call)

            // 7. Transport.
            if let monitor = configuration.reachability { try await awaitConnectivity(monitor, sent, &call) }
            let outcome = try await transmit(sent, to: prepared.responseBody, &call)
            return Attempt(encoded: encoded, sent: sent, outcome: outcome, preparedHeaders: prepared.headers)
        } catch {
            sent.removeTemporaryBody(unlessUsedBy: encoded)
            encoded.removeTemporaryBody()
            throw error
        }
    }

    /// Step 5: a fresh `HTTPRequest` from the prepared one, parameters encoded in order; after
    /// an auth replay, the replayed attempt's URL, body and the header fields its encoders set
    /// (a multipart boundary, say), with the other header fields as the auth stage left them
    /// this time. A download with part of its file asks for the rest.
    private func encode(_ prepared: PreparedRequest, replaying replayed: Attempt?, _ call: inout Call) throws
        -> HTTPRequest
    {
        let encoding = Stopwatch.start()
        defer { call.metrics.encoding += encoding.elapsed }
        var encoded: HTTPRequest
        if let replayed {
            encoded = replayed.encoded.replayed(with: prepared.headers, encodedFrom: replayed.preparedHeaders)
        } else {
            encoded = HTTPRequest(
                method: prepared.method, url: prepared.url, headers: prepared.headers,
                timeout: prepared.timeout ?? configuration.timeout, deadlineOffset: call.context.deadlineOffset,
                maxResponseBytes: prepared.maxResponseBytes ?? configuration.maxResponseBytes)
            encoded.bodyProgress = prepared.bodyProgress
            let context = ParameterEncodingContext(json: configuration.jsonEncoding, endpoint: prepared.name)
            do {
                for parameters in prepared.parameters {
                    try parameters.encoder.encode(parameters.value, into: &encoded, context: context)
                }
            } catch {
                encoded.removeTemporaryBody()
                throw wrap(error, .encoding, "the parameters could not be encoded")
            }
        }
        prepared.responseBody.resume(&encoded)
        let context = call.context
        notify { $0.requestEncoded(encoded, context: context) }
        return encoded
    }

    /// Step 6: each interceptor's `adapt`, in order (called only when there are interceptors).
    private func adapt(_ encoded: HTTPRequest, _ call: inout Call) async throws -> HTTPRequest {
        let adapting = Stopwatch.start()
        defer { call.metrics.interception += adapting.elapsed }
        var request = encoded
        do {
            for interceptor in interceptors {
                request = try await interceptor.adapt(request, context: call.context)
            }
        } catch {
            request.removeTemporaryBody(unlessUsedBy: encoded)
            throw wrap(error, .intercepted, "an interceptor failed while adapting the request")
        }
        return request
    }

    /// Step 7: the transport's exchange, its body collected up to the response limit, written
    /// to the download's file, or held for the stream's caller; a failure without a response is
    /// an outcome too (step 8 decides on it).
    private func transmit(_ request: HTTPRequest, to destination: BodyDestination, _ call: inout Call) async throws
        -> Attempt.Outcome
    {
        let context = call.context
        notify { $0.requestSent(request, context: context) }
        call.metrics.attempts += 1
        let sending = Stopwatch.start()
        do {
            let head = try await destination.head(of: request, from: transport, by: context.deadlineOffset)
            let response = try await destination.receive(head, for: request,
                                                         errorBodyLimit: configuration.maxResponseBytes)
            // A transport slow to notice cancellation does not turn a cancelled call into a success.
            try Task.checkCancellation()
            call.metrics.transportAttempts.append(
                AttemptMetrics(number: context.attempt, duration: sending.elapsed,
                               status: response.status))
            call.metrics.transport.append(response.transportMetrics)
            notify { $0.responseReceived(response, for: request, context: context) }
            return .response(response)
        } catch {
            if error.isCancellation || Task.isCancelled { throw CancellationError() }
            var failure = error as? GatewayError ?? GatewayError(.transport, "the transport failed", underlying: error)
            if failure.request == nil { failure.request = request }
            call.metrics.transportAttempts.append(
                AttemptMetrics(number: context.attempt, duration: sending.elapsed,
                               failure: failure.kind))
            return .failure(failure)
        }
    }

    /// Throws a `.timeout` when the call's deadline has passed before the attempt in hand
    /// (its message, naming the attempt, is made only then).
    func checkDeadlineBeforeAttempt(_ call: Call) throws {
        guard let deadline = call.context.deadline, clock.now >= deadline else { return }
        throw GatewayError(.timeout, "\(call.deadlineName) passed before attempt \(call.context.attempt)",
                           fix: Call.deadlineFix)
    }
}

/// One attempt: the request as its encoders made it, as the interceptors sent it, and how the
/// transport answered. Held by reference: steps 7 and 8 pass it along and keep it for an auth
/// replay, and as a value it would be some 400 bytes copied at each of those places.
final class Attempt: Sendable {
    /// How the transport answered.
    enum Outcome: Sendable {
        case response(HTTPResponse)
        /// The attempt failed without a response (a transport error or timeout). Held by
        /// reference: a failure is rare, and inline it would make every attempt as large as
        /// a `GatewayError` with its request and response.
        indirect case failure(GatewayError)
    }

    /// The request as the encoders made it (step 5).
    let encoded: HTTPRequest
    /// The request as sent, after the interceptors (step 6).
    let sent: HTTPRequest
    let outcome: Outcome
    /// The header fields of the prepared request the encoders started from.
    let preparedHeaders: HTTPHeaders

    init(encoded: HTTPRequest, sent: HTTPRequest, outcome: Outcome, preparedHeaders: HTTPHeaders) {
        self.encoded = encoded
        self.sent = sent
        self.outcome = outcome
        self.preparedHeaders = preparedHeaders
    }

    /// The response, if the attempt has one.
    var response: HTTPResponse? {
        if case .response(let response) = outcome { return response }
        return nil
    }

    /// `failure` with the attempt's request and response where it has none (a failure without
    /// a response keeps none).
    func filled(_ failure: GatewayError) -> GatewayError {
        var failure = failure
        if failure.request == nil { failure.request = sent }
        if failure.response == nil, failure.kind != .transport { failure.response = response }
        return failure
    }

    /// Deletes the body files the attempt's encoders and interceptors created (not the encoded
    /// one when an auth replay sends it again).
    func removeTemporaryBodies(keepingEncoded: Bool = false) {
        sent.removeTemporaryBody(unlessUsedBy: encoded)
        if !keepingEncoded { encoded.removeTemporaryBody() }
    }
}
