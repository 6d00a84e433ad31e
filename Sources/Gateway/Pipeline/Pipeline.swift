import Foundation

/// The one ordered path every request takes, REST endpoints and GraphQL operations alike.
///
/// 1. **Build**: the `Requestable` makes a `PreparedRequest` (URL joined safely, fixed query
///    items, headers, unencoded parameters, priority, retryability); the provider's default
///    headers are merged under its own, header fields with line breaks are refused, and the
///    call's deadline is fixed (one deadline covers every attempt).
/// 2. **Queue**: `Configuration.queue` admits the request by priority under its concurrency cap
///    (observers: `enqueued`, `dequeued`); a request cancelled while queued leaves without
///    being encoded. Its ticket is released exactly once when the request ends, and at once
///    when its task is cancelled.
/// 3. **Auth**: `Configuration.auth` attaches credentials (or nothing). With a token store
///    (`Configuration.tokens`), the token stage does instead: it waits while the credential is
///    refreshed and attaches it to requests that require authentication and go to the
///    provider's own origins; it also runs first among the interceptors (steps 5 and 7) to
///    re-check the credential before each attempt and to answer a refused one with a refresh
///    and a replay. A credential refresh request skips this step and is queued in step 2 as a
///    `blocker` (never waiting for a request that waits for it).
/// 4. **Encode**: cancellation is checked first, so a request cancelled in steps 1–3 never
///    runs an encoder; then each parameter encoder runs, in order, into a fresh `HTTPRequest`
///    (observers: `encoded`).
/// 5. **Adapt**: each interceptor's `adapt`, in order.
/// 6. **Transport**: the deadline is checked; with a reachability monitor, an unusable
///    network fails the attempt or, when the request waits for connectivity, holds it until
///    the network is back (bounded by the deadline); then the transport sends the request
///    (observers: `sent`, `received`); a temporary body file is deleted when the attempt ends.
/// 7. **Decide**: each interceptor's `decide`, in order, until one says more than `.continue`:
///    `.retry` goes back to step 4 (an error retry: at most `Configuration.maxAttempts`
///    attempts, the delay bounded by the deadline; observers: `retried`), `.replay` goes back
///    to step 3 (an auth replay, counted apart; observers: `replayed`; the body encoded for the
///    replayed attempt is sent again byte for byte), `.fail` ends with its
///    error, `.done` takes its response as the success. When all continue,
///    `Configuration.retryPolicy` decides whether a retryable status or transport failure is
///    sent again (back-off or `Retry-After`, never past the deadline); otherwise the
///    requestable's `validate` decides (for an endpoint: its acceptable status codes and API
///    error body); a failed attempt without a response stands as an error.
/// 8. **Decode**: the requestable decodes the accepted response.
/// 9. **Cache write**: `Configuration.cache` is offered the response. A `ResponseCache` works
///    around steps 2–9 instead (`Pipeline+Cache.swift`): after step 1 it looks the request up
///    and may answer from the store without steps 2–7; identical requests in flight share
///    one pass through steps 2–7; it stores the response itself.
/// 10. **Metrics**: the total time is recorded, the `Response` is returned with its
///     `RequestMetrics`, and observers get `finished` with them, exactly once for every
///     request, however it ended.
///
/// Errors leave as `GatewayError` with the endpoint name, the request and the response filled
/// in; `CancellationError` (and any failure while the task is cancelled) leaves as
/// `CancellationError`. `Provider.invalidate()` cancels every request under way.
///
/// A class holding only `let`s, so that each suspended step of a request holds a reference to
/// it rather than a copy of the whole configuration.
final class Pipeline: Sendable {
    let baseURL: URL
    let transport: any Transport
    let configuration: Provider.Configuration
    let inFlight: InFlightRequests
    private let counter: Locked<UInt64>
    /// Step 3: the token stage when the provider has a token store, else `configuration.auth`.
    let auth: any AuthStage
    /// Steps 5 and 7: the token stage first when the provider has a token store, then
    /// `configuration.interceptors`.
    let interceptors: [any Interceptor]
    /// The provider's token coordinator, if it has one.
    let tokens: TokenCoordinator?
    /// `configuration.cache` when it is a `ResponseCache` (it then looks requests up; see Pipeline+Cache).
    let responseCache: ResponseCache?
    /// `configuration.queue` when a request's interruption ends its wait directly.
    let interruptibleQueue: (any InterruptibleQueue)?
    /// `transport` when an interruption can end its exchanges directly.
    let interruptibleTransport: (any InterruptibleTransport)?

    convenience init(baseURL: URL, transport: any Transport, configuration: Provider.Configuration) {
        let inFlight = InFlightRequests(), counter = Locked<UInt64>(0)
        guard let coordinator = configuration.makeTokenCoordinator() else {
            self.init(baseURL: baseURL, transport: transport, configuration: configuration, inFlight: inFlight,
                      counter: counter, auth: configuration.auth, interceptors: configuration.interceptors, tokens: nil)
            return
        }
        // Refresh requests skip the token stage; they share the queue, observers and in-flight list.
        let refreshing = Pipeline(
            baseURL: baseURL, transport: transport, configuration: configuration, inFlight: inFlight, counter: counter,
            auth: NoAuthentication(), interceptors: configuration.interceptors, tokens: coordinator)
        let stage = TokenAuthentication(coordinator: coordinator, pipeline: refreshing,
                                        origins: Set(configuration.credentialOrigins.compactMap(Origin.init)))
        self.init(baseURL: baseURL, transport: transport, configuration: configuration, inFlight: inFlight,
                  counter: counter, auth: stage, interceptors: [stage] + configuration.interceptors,
                  tokens: coordinator)
    }

    private init(
        baseURL: URL, transport: any Transport, configuration: Provider.Configuration, inFlight: InFlightRequests,
        counter: Locked<UInt64>, auth: any AuthStage, interceptors: [any Interceptor], tokens: TokenCoordinator?
    ) {
        self.baseURL = baseURL
        self.transport = transport
        self.configuration = configuration
        self.inFlight = inFlight
        self.counter = counter
        self.auth = auth
        self.interceptors = interceptors
        self.tokens = tokens
        responseCache = configuration.cache as? ResponseCache
        interruptibleQueue = configuration.queue as? any InterruptibleQueue
        interruptibleTransport = transport as? any InterruptibleTransport
    }

    var clock: any TimeSource { configuration.clock }

    /// What one request has gathered so far. A class, so that each suspended step holds a
    /// reference to it rather than a copy in its frame; it belongs to one request's task.
    final class Run {
        var context: RequestContext
        var metrics = RequestMetrics()
        /// The request of the current attempt, once encoded.
        var request: HTTPRequest?
        /// The response of the current attempt, once received.
        var response: HTTPResponse?
        /// Whether the retry policy may send the request again.
        var retryability = Retryability.automatic
        /// Whether an attempt waits for the network.
        var waitsForConnectivity = false
        /// The refresh this request works for, when it is a credential refresh request.
        var refresh: RefreshScope?
        /// The attempt that asked for an auth replay: its body and the header fields its
        /// encoders set are sent again on the replay (step 4 does not encode again).
        var replayed: (request: HTTPRequest, preparedHeaders: HTTPHeaders)?
        /// Ends the request from outside its task (`Provider.invalidate()`).
        let interruption: Interruption
        /// The decoded value, once step 8 (or the cache) has produced it. The steps leave their
        /// results here rather than return them, so that no step's frame holds a copy.
        var value: (any Sendable)?

        init(context: RequestContext, interruption: Interruption = Interruption()) {
            self.context = context
            self.interruption = interruption
        }

        /// Whether the request's task was cancelled or the request interrupted.
        var isCancelled: Bool { Task.isCancelled || interruption.isInterrupted }

        /// Throws `CancellationError` when the request's task was cancelled or the request interrupted.
        func checkCancellation() throws {
            try Task.checkCancellation()
            try interruption.check()
        }

        /// The accepted response and the request it answers, once the steps have succeeded.
        func accepted() throws -> (response: HTTPResponse, request: HTTPRequest) {
            guard let response, let request else {
                throw GatewayError(.invalidResponse, "\(context.name) ended without a response",
                                   fix: "report this as a bug in Gateway", endpoint: context.name)
            }
            return (response, request)
        }
    }

    /// A request's result before its value is given back its type: the pipeline's steps are
    /// compiled once for every kind of requestable, not once per type.
    struct Outcome: Sendable {
        var value: any Sendable
        var response: HTTPResponse
        var request: HTTPRequest
        var metrics: RequestMetrics
    }

    /// Runs the request in the caller's task: its cancellation cancels the request, and
    /// `Provider.invalidate()` ends it through its `Interruption` without cancelling the caller.
    func send<R: Requestable>(_ requestable: R) async throws -> Response<R.Value> {
        let outcome = try await send(erased: requestable)
        guard let value = outcome.value as? R.Value else {
            throw GatewayError(.decoding, "\(requestable.name) decoded a \(type(of: outcome.value)), not a \(R.Value.self)",
                               fix: "report this as a bug in Gateway", endpoint: requestable.name)
        }
        return Response(value: value, httpResponse: outcome.response, request: outcome.request,
                        metrics: outcome.metrics)
    }

    /// `send`, with the requestable's type erased: the steps are compiled once for every kind of
    /// requestable.
    @inline(never)
    private func send(erased requestable: any Requestable) async throws -> Outcome {
        let number = counter.withLock { value -> UInt64 in
            value += 1
            return value
        }
        let id = RequestID(number)
        let startedAt = ContinuousClock.now
        let clockStart = clock.now
        let interruption = Interruption()
        guard inFlight.register(number, cancel: { interruption.interrupt() }) else {
            var context = RequestContext(id: id, name: requestable.name, baseURL: baseURL)
            context.priority = .medium
            let failure = GatewayError(.cancelled, "the provider was invalidated", fix: "create a new Provider",
                                       endpoint: requestable.name)
            notify { $0.requestFinished(.failure(failure), metrics: RequestMetrics(), context: context) }
            throw failure
        }
        defer { inFlight.remove(number) }
        return try await run(requestable, id: id, startedAt: startedAt, clockStart: clockStart,
                             refresh: RefreshScope.current, interruption: interruption)
    }

    /// Runs `operation`, which knows only its task's cancellation, so that the request's
    /// interruption ends it too: in a task of its own, which the interruption cancels.
    /// A value it produces is returned even when the interruption fired meanwhile (a queue
    /// ticket must not be lost); the next step then sees the interruption.
    func interruptibly<Value: Sendable>(
        _ interruption: Interruption, _ operation: sending @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try Task.checkCancellation()
        try interruption.check()
        let task = Self.startImmediately(operation)
        return try await Interruption.withCancellationHandler(interruption) {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    /// Starts a task that, where the platform allows, runs on the calling thread until it first
    /// suspends, saving a thread hand-off.
    private static func startImmediately<Value: Sendable>(
        _ operation: sending @escaping @Sendable () async throws -> Value
    ) -> Task<Value, any Error> {
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            return Task.immediate(operation: operation)
        }
        return Task(operation: operation)
    }

    /// Every step, and the `finished` event.
    @inline(never)
    private func run(
        _ requestable: any Requestable, id: RequestID, startedAt: ContinuousClock.Instant,
        clockStart: ContinuousClock.Instant, refresh: RefreshScope?, interruption: Interruption
    ) async throws -> Outcome {
        let run = Run(context: RequestContext(id: id, name: requestable.name, baseURL: baseURL, startedAt: startedAt),
                      interruption: interruption)
        run.refresh = refresh
        do {
            // Without a response cache the look-up stage is skipped, and its frame with it.
            if responseCache == nil || refresh != nil {
                try await admit(requestable, clockStart: clockStart, run)
            } else {
                try await lookUp(requestable, clockStart: clockStart, run)
            }
            return try succeeded(run)
        } catch {
            throw failed(run, error)
        }
    }

    /// The `finished` event of a request that succeeded, and its outcome. Synchronous, so that
    /// its copies stay out of the suspended steps' frames.
    @inline(never)
    private func succeeded(_ run: Run) throws -> Outcome {
        let (response, request) = try run.accepted()
        guard let value = run.value else {
            throw GatewayError(.decoding, "\(run.context.name) ended without a decoded value",
                               fix: "report this as a bug in Gateway", endpoint: run.context.name)
        }
        run.metrics.total = run.context.elapsed
        notify { $0.requestFinished(.success(response), metrics: run.metrics, context: run.context) }
        return Outcome(value: value, response: response, request: request, metrics: run.metrics)
    }

    /// The `finished` event of a request that failed, and the error it throws.
    @inline(never)
    private func failed(_ run: Run, _ error: any Error) -> any Error {
        run.metrics.total = run.context.elapsed
        let failure = finalError(error, run)
        let outcome: RequestOutcome = (failure as? GatewayError).map { .failure($0) } ?? .cancelled
        notify { $0.requestFinished(outcome, metrics: run.metrics, context: run.context) }
        return failure
    }

    /// Steps 1 and 2, and the release of the queue ticket.
    @inline(never)
    func admit(_ requestable: any Requestable, clockStart: ContinuousClock.Instant, _ run: Run) async throws {
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
        if run.refresh != nil {
            prepared.priority = .blocker
            prepared.requiresAuthentication = false
            run.context.isCredentialRefresh = true
        }
        run.context.priority = prepared.priority
        run.context.requiresAuthentication = prepared.requiresAuthentication
        run.context.deadline = (prepared.deadline ?? configuration.deadline).map { clockStart + $0 }
        run.retryability = prepared.retryability
        run.waitsForConnectivity = prepared.waitsForConnectivity ?? configuration.waitsForConnectivity

        // 2. Queue.
        let context = run.context
        notify { $0.requestEnqueued(context) }
        let queuedAt = ContinuousClock.now
        let ticket: QueueTicket?
        do {
            let queue = configuration.queue
            if let refresh = run.refresh {
                ticket = try await interruptibly(run.interruption) { try await refresh.admit(context, to: queue) }
            } else if let interruptibleQueue {
                ticket = try await interruptibleQueue.enqueue(context, interruption: run.interruption)
            } else {
                ticket = try await interruptibly(run.interruption) { try await queue.enqueue(context) }
            }
        } catch {
            throw wrap(error, .cancelled, "the request queue did not admit the request")
        }
        run.metrics.queued = ContinuousClock.now - queuedAt
        run.metrics.heldByBlocker = min(ticket?.heldByBlocker ?? .zero, run.metrics.queued)
        notify { $0.requestDequeued(context) }
        let release = ticket.map { TicketRelease(queue: configuration.queue, ticket: $0) }
        do {
            try await Interruption.withCancellationHandler(run.interruption) {
                try await authorizeAndSend(requestable, prepared, run)
            } onCancel: {
                release?.releaseSoon()
            }
            await release?.release()
        } catch {
            await release?.release()
            throw error
        }
    }

    /// Steps 3 to 9; step 3 again after each auth replay.
    @inline(never)
    private func authorizeAndSend(_ requestable: any Requestable, _ prepared: PreparedRequest, _ run: Run)
        async throws
    {
        let decodingContext = ResponseDecodingContext(json: configuration.jsonDecoding)
        var authorized = prepared
        defer { if let replayed = run.replayed { Self.removeTemporaryBody(of: replayed.request) } }
        while true {
            // 3. Auth (never for a credential refresh request).
            if !run.context.isCredentialRefresh {
                authorized = try await authorize(prepared, run)
            }
            try HeaderValidation.check(authorized.headers)

            // 4–7, once per attempt.
            if case .accepted = try await attempts(requestable, authorized, decodingContext, run) { break }
        }

        // 8. Decode.
        try decode(requestable, decodingContext, run)

        // 9. Cache write.
        try await writeCache(authorized, run)
    }

    /// Step 3: the auth stage's request, timed.
    @inline(never)
    private func authorize(_ prepared: PreparedRequest, _ run: Run) async throws -> PreparedRequest {
        let authorizingAt = ContinuousClock.now
        defer { run.metrics.authorization += ContinuousClock.now - authorizingAt }
        do {
            return try await auth.authorize(prepared, context: run.context)
        } catch {
            throw wrap(error, .authentication, "credentials could not be attached")
        }
    }

    /// Step 9: the cache is offered the accepted response, timed.
    @inline(never)
    private func writeCache(_ authorized: PreparedRequest, _ run: Run) async throws {
        let (response, request) = try run.accepted()
        let writingAt = ContinuousClock.now
        await configuration.cache.write(response, for: request, prepared: authorized, context: run.context)
        run.metrics.cacheWrite = ContinuousClock.now - writingAt
    }

    /// Step 8: decodes the accepted response into `run.value`.
    @inline(never)
    private func decode(_ requestable: any Requestable, _ context: ResponseDecodingContext, _ run: Run) throws {
        let (response, _) = try run.accepted()
        let decodingAt = ContinuousClock.now
        do {
            run.value = try requestable.decode(response, context: context)
        } catch {
            throw wrap(error, .decoding, "the response could not be decoded")
        }
        run.metrics.decoding = ContinuousClock.now - decodingAt
    }

    func checkDeadline(_ run: Run, before step: String) throws {
        guard let deadline = run.context.deadline, clock.now >= deadline else { return }
        throw GatewayError(.timeout, "the call's deadline passed before \(step)",
                           fix: "raise the endpoint's deadline or Configuration.deadline", response: run.response)
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
        if error is CancellationError || run.isCancelled { return CancellationError() }
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

/// Releases one queue ticket exactly once: when the request ends, or at once (from a
/// cancellation handler) when its task is cancelled, whichever comes first.
final class TicketRelease: Sendable {
    private let queue: any RequestQueue
    /// The queue when it can release without suspending.
    private let immediate: PriorityRequestQueue?
    private let ticket: QueueTicket
    private let released = Locked(false)

    init(queue: any RequestQueue, ticket: QueueTicket) {
        self.queue = queue
        self.immediate = queue as? PriorityRequestQueue
        self.ticket = ticket
    }

    private func claim() -> Bool {
        released.withLock { released in
            defer { released = true }
            return !released
        }
    }

    /// Releases the ticket unless it already was.
    func release() async {
        guard claim() else { return }
        if let immediate {
            immediate.finishNow(ticket)
        } else {
            await queue.finished(ticket)
        }
    }

    /// Releases the ticket from synchronous code, unless it already was.
    func releaseSoon() {
        guard claim() else { return }
        if let immediate {
            immediate.finishNow(ticket)
            return
        }
        let queue = queue, ticket = ticket
        Task { await queue.finished(ticket) }
    }
}
