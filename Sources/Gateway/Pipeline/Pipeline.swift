import Foundation

/// The one ordered path every request takes, REST endpoints and GraphQL operations alike.
///
/// 1. **Build**: the `Requestable` makes a `PreparedRequest` (URL joined safely, fixed query
///    items, headers, unencoded parameters); the provider's default headers are merged under
///    its own, and header fields with line breaks are refused.
/// 2. **Queue**: `Configuration.queue` admits the request (observers: `enqueued`, `dequeued`);
///    its ticket is released exactly once when the request ends.
/// 3. **Auth**: `Configuration.auth` attaches credentials (or nothing).
/// 4. **Encode**: cancellation is checked first, so a request cancelled in steps 1–3 never
///    runs an encoder; then each parameter encoder runs, in order, into a fresh `HTTPRequest`
///    (observers: `encoded`).
/// 5. **Adapt**: each interceptor's `adapt`, in order.
/// 6. **Transport**: the deadline is checked, then the transport sends the request (observers:
///    `sent`, `received`); a temporary body file is deleted when the attempt ends.
/// 7. **Decide**: each interceptor's `decide`, in order, until one says more than `.continue`:
///    `.retry` goes back to step 4 (encoded again; at most `Configuration.maxAttempts`
///    attempts, the delay bounded by the deadline; observers: `retried`), `.fail` ends with its
///    error, `.done` takes its response as the success. When all continue, the requestable's
///    `validate` decides (for an endpoint: its acceptable status codes and API error body); a
///    failed attempt without a response stands as an error.
/// 8. **Decode**: the requestable decodes the accepted response.
/// 9. **Cache write**: `Configuration.cache` is offered the response.
/// 10. **Metrics**: the total time is recorded, the `Response` is returned, and observers get
///     `finished`, exactly once for every request, however it ended.
///
/// Errors leave as `GatewayError` with the endpoint name, the request and the response filled
/// in; `CancellationError` (and any failure while the task is cancelled) leaves as
/// `CancellationError`.
struct Pipeline: Sendable {
    let baseURL: URL
    let transport: any Transport
    let configuration: Provider.Configuration
    private let counter = Locked<UInt64>(0)

    init(baseURL: URL, transport: any Transport, configuration: Provider.Configuration) {
        self.baseURL = baseURL
        self.transport = transport
        self.configuration = configuration
    }

    /// What one request has gathered so far.
    struct Run {
        var context: RequestContext
        var metrics = RequestMetrics()
        /// The request of the current attempt, once encoded.
        var request: HTTPRequest?
        /// The response of the current attempt, once received.
        var response: HTTPResponse?
    }

    func send<R: Requestable>(_ requestable: R) async throws -> Response<R.Value> {
        let id = counter.withLock { value -> UInt64 in
            value += 1
            return value
        }
        var run = Run(context: RequestContext(id: RequestID(id), name: requestable.name, baseURL: baseURL))
        do {
            let (value, response, request) = try await admit(requestable, &run)
            run.metrics.total = run.context.elapsed
            let metrics = run.metrics
            notify { $0.requestFinished(.success(response), metrics: metrics, context: run.context) }
            return Response(value: value, httpResponse: response, request: request, metrics: metrics)
        } catch {
            run.metrics.total = run.context.elapsed
            let failure = finalError(error, run)
            let outcome: RequestOutcome = (failure as? GatewayError).map { .failure($0) } ?? .cancelled
            let metrics = run.metrics
            notify { $0.requestFinished(outcome, metrics: metrics, context: run.context) }
            throw failure
        }
    }

    /// Steps 1 and 2, and the release of the queue ticket.
    private func admit<R: Requestable>(_ requestable: R, _ run: inout Run) async throws
        -> (R.Value, HTTPResponse, HTTPRequest)
    {
        // 1. Build.
        var prepared: PreparedRequest
        do {
            prepared = try requestable.prepare(baseURL: baseURL)
        } catch {
            throw wrap(error, .invalidRequest, "the request could not be built")
        }
        var headers = configuration.headers
        headers.merge(prepared.headers)
        prepared.headers = headers
        try HeaderValidation.check(prepared.headers)
        run.context.priority = prepared.priority
        run.context.requiresAuthentication = prepared.requiresAuthentication
        run.context.deadline = (prepared.deadline ?? configuration.deadline).map { run.context.startedAt + $0 }

        // 2. Queue.
        let context = run.context
        notify { $0.requestEnqueued(context) }
        let queuedAt = ContinuousClock.now
        let ticket: QueueTicket
        do {
            ticket = try await configuration.queue.enqueue(run.context)
        } catch {
            throw wrap(error, .cancelled, "the request queue did not admit the request")
        }
        run.metrics.queued = ContinuousClock.now - queuedAt
        notify { $0.requestDequeued(context) }
        do {
            let result = try await authorizeAndSend(requestable, prepared, &run)
            await configuration.queue.finished(ticket)
            return result
        } catch {
            await configuration.queue.finished(ticket)
            throw error
        }
    }

    /// Steps 3 to 9.
    private func authorizeAndSend<R: Requestable>(_ requestable: R, _ prepared: PreparedRequest, _ run: inout Run)
        async throws -> (R.Value, HTTPResponse, HTTPRequest)
    {
        // 3. Auth.
        let authorizingAt = ContinuousClock.now
        let authorized: PreparedRequest
        do {
            authorized = try await configuration.auth.authorize(prepared, context: run.context)
        } catch {
            throw wrap(error, .authentication, "credentials could not be attached")
        }
        run.metrics.authorization = ContinuousClock.now - authorizingAt
        try HeaderValidation.check(authorized.headers)

        // 4–7, once per attempt.
        let decodingContext = ResponseDecodingContext(json: configuration.jsonDecoding)
        let (response, request) = try await attempts(requestable, authorized, decodingContext, &run)

        // 8. Decode.
        let decodingAt = ContinuousClock.now
        let value: R.Value
        do {
            value = try requestable.decode(response, context: decodingContext)
        } catch {
            throw wrap(error, .decoding, "the response could not be decoded")
        }
        run.metrics.decoding = ContinuousClock.now - decodingAt

        // 9. Cache write.
        let writingAt = ContinuousClock.now
        await configuration.cache.write(response, for: request, prepared: authorized, context: run.context)
        run.metrics.cacheWrite = ContinuousClock.now - writingAt
        return (value, response, request)
    }

    /// Steps 4 to 7, repeated while the decision is to retry.
    private func attempts<R: Requestable>(
        _ requestable: R, _ prepared: PreparedRequest, _ decodingContext: ResponseDecodingContext, _ run: inout Run
    ) async throws -> (HTTPResponse, HTTPRequest) {
        while true {
            run.context.attempt += 1
            run.request = nil
            run.response = nil
            switch try await attempt(prepared, &run) {
            case .response(let response, let request, .continue):
                if let failure = requestable.validate(response, context: decodingContext) { throw failure }
                return (response, request)
            case .response(_, let request, .done(let response)), .failure(_, let request, .done(let response)):
                run.response = response
                return (response, request)
            case .response(_, _, .fail(let failure)), .failure(_, _, .fail(let failure)):
                throw failure
            case .failure(let failure, _, .continue):
                throw failure
            case .response(_, _, .retry(let delay)), .failure(_, _, .retry(let delay)):
                try await waitToRetry(after: delay, &run)
            }
        }
    }

    /// Step 7's retry: checks the attempt limit and the deadline, tells observers, waits.
    private func waitToRetry(after delay: Duration?, _ run: inout Run) async throws {
        let limit = max(1, configuration.maxAttempts)
        guard run.context.attempt < limit else {
            throw GatewayError(
                .tooManyAttempts, "gave up after \(run.context.attempt) attempts",
                fix: "the interceptors asked for more retries than Configuration.maxAttempts (\(limit)) allows",
                response: run.response)
        }
        let context = run.context
        notify { $0.requestRetried(after: delay, context: context) }
        guard let delay, delay > .zero else { return }
        if let deadline = run.context.deadline, ContinuousClock.now + delay > deadline {
            throw GatewayError(
                .timeout, "a retry after \(delay) would pass the call's deadline",
                fix: "raise the endpoint's deadline or Configuration.deadline", response: run.response)
        }
        let waitingAt = ContinuousClock.now
        try await Task.sleep(for: delay)
        run.metrics.retryDelay += ContinuousClock.now - waitingAt
    }

    func checkDeadline(_ run: Run, before step: String) throws {
        guard let deadline = run.context.deadline, ContinuousClock.now >= deadline else { return }
        throw GatewayError(.timeout, "the call's deadline passed before \(step)",
                           fix: "raise the endpoint's deadline or Configuration.deadline")
    }

    func notify(_ event: (any Observer) -> Void) {
        for observer in configuration.observers { event(observer) }
    }

    /// `CancellationError` and `GatewayError` as they are; anything else as a `GatewayError` of `kind`.
    func wrap(_ error: any Error, _ kind: GatewayError.Kind, _ message: String) -> any Error {
        if error is CancellationError || error is GatewayError { return error }
        return GatewayError(kind, message, underlying: error)
    }

    /// The error `send` throws: `CancellationError` when the task was cancelled, otherwise a
    /// `GatewayError` with the endpoint, request and response filled in where missing.
    private func finalError(_ error: any Error, _ run: Run) -> any Error {
        if error is CancellationError || Task.isCancelled { return CancellationError() }
        var failure = error as? GatewayError ?? GatewayError(.transport, "the request failed", underlying: error)
        if failure.endpoint == nil { failure.endpoint = run.context.name }
        if failure.request == nil { failure.request = run.request }
        if failure.response == nil, failure.kind != .transport { failure.response = run.response }
        return failure
    }

    /// Deletes a body file the encoder created for this attempt (never one that `other` still uses).
    static func removeTemporaryBody(of request: HTTPRequest, unless other: HTTPRequest? = nil) {
        guard case .file(let url, _, true) = request.body else { return }
        if let other, case .file(let otherURL, _, _) = other.body, otherURL == url { return }
        try? FileManager.default.removeItem(at: url)
    }
}
