import Foundation

/// The one ordered path every request takes, REST endpoints and GraphQL operations alike.
///
/// 1. **Build**: the `Requestable` makes a `PreparedRequest` (URL joined safely, fixed query
///    items, headers, unencoded parameters, priority, retryability); the provider's default
///    headers are merged under its own, header fields with line breaks are refused, a
///    `cacheOnly` request without a response cache is refused (`.cacheNotConfigured`), and the
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
/// 8. **Decode**: the requestable decodes the accepted response; a failure ends the request
///    before step 9, so nothing that failed to decode is offered to the cache.
/// 9. **Cache write**: `Configuration.cache` is offered the decoded response. A `ResponseCache`
///    works around steps 2–9 instead (`Pipeline+Cache.swift`): after step 1 it looks the request
///    up and may answer from the store without steps 2–7 (an entry that does not decode is
///    removed, and the request goes on as on a miss); identical requests in flight share one
///    pass through steps 2–8; it stores the response itself, once it has decoded.
/// 10. **Metrics**: the total time is recorded, the `Response` is returned with its
///     `RequestMetrics`, and observers get `finished` with them, exactly once for every
///     request, however it ended.
///
/// A request that may need a follow-up (`FollowedRequestable`: a GraphQL operation with
/// persisted queries on) takes this path with its first form (the hash alone) and, when the
/// answer asks for more (the server does not know the hash), once more with its follow-up (the
/// hash with the text); every entry point (`send`, `fetch`, `task`) does the same.
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
    /// Whether step 3 attaches nothing (`NoAuthentication`), so that it is skipped.
    let authAttachesNothing: Bool
    /// Whether step 9 has a stage to offer responses to: not `NoCache`, and not a
    /// `ResponseCache` (which stores through its look-up stage).
    let writesCache: Bool
    /// What step 8 and the endpoints' validation decode with.
    let decodingContext: ResponseDecodingContext

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
        authAttachesNothing = auth is NoAuthentication
        writesCache = !(configuration.cache is NoCache || configuration.cache is ResponseCache)
        decodingContext = ResponseDecodingContext(json: configuration.jsonDecoding)
    }

    var clock: any TimeSource { configuration.clock }

    /// What one request has gathered so far. A class, so that each suspended step holds a
    /// reference to it rather than a copy in its frame; it belongs to one request's task.
    final class Run {
        var context: RequestContext
        var metrics = RequestMetrics()
        /// The request as built (step 1), once built.
        var prepared: PreparedRequest?
        /// The request as the auth stage left it (step 3), once authorized.
        var authorized: PreparedRequest?
        /// The request of the current attempt as its encoders made it (step 4).
        var encoded: HTTPRequest?
        /// The request of the current attempt, once encoded (and adapted, after step 5).
        var request: HTTPRequest?
        /// The response of the current attempt, once received.
        var response: HTTPResponse?
        /// How the current attempt failed, when it ended without a response.
        var failure: GatewayError?
        /// What the interceptors decided about the current attempt (step 7).
        var decision = Decision.continue
        /// Whether the current attempt's body goes again with an auth replay.
        var keepsEncodedBody = false
        /// When the request joined the queue (step 2).
        var queuedAt: ContinuousClock.Instant?
        /// The whole call's time budget (the endpoint's or the configuration's deadline), for messages.
        var deadlineBudget: Duration?
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
        @inline(never)
        func accepted() throws -> (response: HTTPResponse, request: HTTPRequest) {
            guard let response, let request else { throw missing("a response") }
            return (response, request)
        }

        /// The request as built in step 1.
        @inline(never)
        func built() throws -> PreparedRequest {
            guard let prepared else { throw missing("a built request") }
            return prepared
        }

        /// The request as the auth stage left it in step 3.
        @inline(never)
        func authorizedRequest() throws -> PreparedRequest {
            guard let authorized else { throw missing("an authorized request") }
            return authorized
        }

        /// The request of the current attempt.
        @inline(never)
        func current() throws -> HTTPRequest {
            guard let request else { throw missing("an encoded request") }
            return request
        }

        /// The error for an attempt that ended with neither a response nor a failure.
        @inline(never)
        func missingOutcome() -> GatewayError { missing("a response or a failure") }

        /// The error for a step that found `what` missing: a bug in the pipeline, not in the request.
        @inline(never)
        func missing(_ what: String) -> GatewayError {
            GatewayError(.invalidResponse, "\(context.name) ended without \(what)",
                         fix: "report this as a bug in Gateway", endpoint: context.name)
        }

        /// `failure` with the request and response of the current attempt where it has none
        /// (a transport failure gets no response).
        func filled(_ failure: GatewayError) -> GatewayError {
            var failure = failure
            if failure.request == nil { failure.request = request }
            if failure.response == nil, failure.kind != .transport { failure.response = response }
            return failure
        }
    }

    /// Runs the request in the caller's task: its cancellation cancels the request, and
    /// `Provider.invalidate()` ends it through its `Interruption` without cancelling the caller.
    func send<R: Requestable>(_ requestable: R) async throws -> Response<R.Value> {
        if let followed = requestable as? any FollowedRequestable {
            return try await send(followed, as: R.self)
        }
        return try Self.response(of: await send(erased: requestable), as: R.self)
    }

    /// The finished request's value, given back its type. Synchronous, so that the copies it
    /// makes stay out of the suspended caller's frame.
    @inline(never)
    static func response<R: Requestable>(of run: Run, as _: R.Type) throws -> Response<R.Value> {
        let (response, request) = try run.accepted()
        guard let value = run.value as? R.Value else {
            let found = run.value.map { "\(type(of: $0))" } ?? "nothing"
            throw GatewayError(.decoding, "\(run.context.name) decoded \(found), not a \(R.Value.self)",
                               fix: "report this as a bug in Gateway", endpoint: run.context.name)
        }
        return Response(value: value, httpResponse: response, request: request, metrics: run.metrics)
    }

    /// `send`, with the requestable's type erased: the steps are compiled once for every kind of
    /// requestable. Returns the finished request's state.
    @inline(never)
    func send(erased requestable: any Requestable) async throws -> Run {
        let number = counter.withLock { value -> UInt64 in
            value += 1
            return value
        }
        let id = RequestID(number)
        let startedAt = ContinuousClock.now
        let clockStart = clock.now
        let interruption = Interruption()
        guard inFlight.register(number, cancel: { interruption.interrupt() }) else {
            throw refused(requestable, id: id)
        }
        defer { inFlight.remove(number) }
        return try await run(requestable, id: id, startedAt: startedAt, clockStart: clockStart,
                             refresh: RefreshScope.current, interruption: interruption)
    }

    /// The error, and the `finished` event, of a request sent after `Provider.invalidate()`.
    @inline(never)
    private func refused(_ requestable: any Requestable, id: RequestID) -> GatewayError {
        var context = RequestContext(id: id, name: requestable.name, baseURL: baseURL)
        context.priority = .medium
        let failure = GatewayError(.cancelled, "the provider was invalidated", fix: "create a new Provider",
                                   endpoint: requestable.name)
        notify { $0.requestFinished(.failure(failure), metrics: RequestMetrics(), context: context) }
        return failure
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
    ) async throws -> Run {
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
            try succeeded(run)
            return run
        } catch {
            throw failed(run, error)
        }
    }

    /// The `finished` event of a request that succeeded. Synchronous, so that its copies stay
    /// out of the suspended steps' frames.
    @inline(never)
    private func succeeded(_ run: Run) throws {
        let (response, _) = try run.accepted()
        guard run.value != nil else {
            throw GatewayError(.decoding, "\(run.context.name) ended without a decoded value",
                               fix: "report this as a bug in Gateway", endpoint: run.context.name)
        }
        run.metrics.total = run.context.elapsed
        notify { $0.requestFinished(.success(response), metrics: run.metrics, context: run.context) }
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

    // Each asynchronous step below keeps little more than `run` across its suspension points:
    // the request's values live in `run`, and the work between two waits is done by
    // synchronous functions, so that a suspended request's frames stay small (each frame of
    // more than about 1 KB costs an allocation of its own).

    /// Steps 1 and 2, and the release of the queue ticket.
    @inline(never)
    func admit(_ requestable: any Requestable, clockStart: ContinuousClock.Instant, _ run: Run) async throws {
        try build(requestable, clockStart: clockStart, run)
        let release = try dequeued(await enqueue(run), run)
        do {
            try await Interruption.withCancellationHandler(run.interruption) {
                try await authorizeAndSend(requestable, run)
            } onCancel: {
                release?.releaseSoon()
            }
            await release?.release()
        } catch {
            await release?.release()
            throw error
        }
    }

    /// Step 1: builds the request into `run.prepared` and fills in the context; tells observers
    /// it is being queued.
    @inline(never)
    private func build(_ requestable: any Requestable, clockStart: ContinuousClock.Instant, _ run: Run) throws {
        var prepared = try prepare(requestable)
        try HeaderValidation.check(prepared.headers)
        if prepared.cache.policy == .cacheOnly, responseCache == nil { throw cacheNotConfigured(prepared) }
        if run.refresh != nil {
            prepared.priority = .blocker
            prepared.requiresAuthentication = false
            run.context.isCredentialRefresh = true
        }
        run.context.priority = prepared.priority
        run.context.requiresAuthentication = prepared.requiresAuthentication
        run.deadlineBudget = prepared.deadline ?? configuration.deadline
        run.context.deadline = run.deadlineBudget.map { clockStart + $0 }
        run.retryability = prepared.retryability
        run.waitsForConnectivity = prepared.waitsForConnectivity ?? configuration.waitsForConnectivity
        run.prepared = prepared
        notify { $0.requestEnqueued(run.context) }
        run.queuedAt = ContinuousClock.now
    }

    /// The error for a `cacheOnly` request through a provider without a response cache.
    @inline(never)
    private func cacheNotConfigured(_ prepared: PreparedRequest) -> GatewayError {
        GatewayError(.cacheNotConfigured,
                     "\(prepared.name) asks for the cache policy cacheOnly, but the provider has no response cache "
                        + "to answer from, so nothing was sent",
                     fix: "give the provider a cache (config.cache = ResponseCache(store: MemoryCacheStore()), or a "
                        + "SQLiteCacheStore), or choose another cache policy", endpoint: prepared.name)
    }

    /// The requestable's request, the provider's header fields under its own.
    func prepare(_ requestable: any Requestable) throws -> PreparedRequest {
        var prepared: PreparedRequest
        do {
            prepared = try requestable.prepare(baseURL: baseURL)
        } catch {
            throw wrap(error, .invalidRequest, "the request could not be built")
        }
        var headers = configuration.headers
        headers.merge(prepared.headers)
        prepared.headers = headers
        return prepared
    }

    /// Step 2: waits for the queue's ticket.
    @inline(never)
    private func enqueue(_ run: Run) async throws -> QueueTicket? {
        do {
            let queue = configuration.queue, context = run.context
            if let refresh = run.refresh {
                return try await interruptibly(run.interruption) { try await refresh.admit(context, to: queue) }
            } else if let interruptibleQueue {
                return try await interruptibleQueue.enqueue(context, interruption: run.interruption)
            } else {
                return try await interruptibly(run.interruption) { try await queue.enqueue(context) }
            }
        } catch {
            throw wrap(error, .cancelled, "the request queue did not admit the request")
        }
    }

    /// After step 2: the time queued, the `dequeued` event, and how the ticket is released.
    @inline(never)
    private func dequeued(_ ticket: QueueTicket?, _ run: Run) -> TicketRelease? {
        run.metrics.queued = run.queuedAt.map { ContinuousClock.now - $0 } ?? .zero
        run.metrics.heldByBlocker = min(ticket?.heldByBlocker ?? .zero, run.metrics.queued)
        notify { $0.requestDequeued(run.context) }
        return ticket.map { TicketRelease(queue: configuration.queue, ticket: $0) }
    }

    /// Steps 3 to 9; step 3 again after each auth replay.
    @inline(never)
    private func authorizeAndSend(_ requestable: any Requestable, _ run: Run) async throws {
        defer { if let replayed = run.replayed { Self.removeTemporaryBody(of: replayed.request) } }
        while true {
            // 3. Auth (never for a credential refresh request).
            if run.context.isCredentialRefresh || authAttachesNothing {
                try unauthorized(run)
            } else {
                try await authorize(run)
            }

            // 4–7, once per attempt.
            if case .accepted = try await attempts(requestable, run) { break }
        }

        // 8. Decode.
        try decode(requestable, run)

        // 9. Cache write.
        if writesCache { try await writeCache(run) }
    }

    /// Step 3 without credentials: the built request goes on as it is.
    @inline(never)
    private func unauthorized(_ run: Run) throws {
        // Step 1 checked these header fields already.
        run.authorized = try run.built()
    }

    /// Step 3: the auth stage's request, timed.
    @inline(never)
    private func authorize(_ run: Run) async throws {
        let authorizingAt = ContinuousClock.now
        let call: AuthCall
        do {
            call = try AuthCall(run)
            try await call.perform(auth)
        } catch {
            throw authorizationFailed(error, since: authorizingAt, run)
        }
        try authorized(call, since: authorizingAt, run)
    }

    /// Step 3's end: the time it took and the header fields the auth stage left.
    @inline(never)
    private func authorized(_ call: AuthCall, since authorizingAt: ContinuousClock.Instant, _ run: Run) throws {
        run.metrics.authorization += ContinuousClock.now - authorizingAt
        run.authorized = call.authorized
        try HeaderValidation.check(run.authorizedRequest().headers)
    }

    /// Step 3's end when the auth stage failed: the time it took and the error to throw.
    @inline(never)
    private func authorizationFailed(_ error: any Error, since authorizingAt: ContinuousClock.Instant, _ run: Run)
        -> any Error
    {
        run.metrics.authorization += ContinuousClock.now - authorizingAt
        return wrap(error, .authentication, "credentials could not be attached")
    }

    /// Step 9: the cache is offered the accepted response, timed.
    @inline(never)
    private func writeCache(_ run: Run) async throws {
        let offer = try CacheOffer(run)
        let writingAt = ContinuousClock.now
        await configuration.cache.write(offer.response, for: offer.request, prepared: offer.prepared,
                                        context: offer.context)
        run.metrics.cacheWrite = ContinuousClock.now - writingAt
    }

    /// What step 3 hands the auth stage and what it gets back, in one allocation rather than
    /// in the step's frame.
    private final class AuthCall {
        let prepared: PreparedRequest
        let context: RequestContext
        private(set) var authorized: PreparedRequest?

        @inline(never)
        init(_ run: Run) throws {
            prepared = try run.built()
            context = run.context
        }

        @inline(never)
        func perform(_ auth: any AuthStage) async throws {
            authorized = try await auth.authorize(prepared, context: context)
        }
    }

    /// What step 9 offers the cache stage, in one allocation rather than in the step's frame.
    private final class CacheOffer {
        let response: HTTPResponse
        let request: HTTPRequest
        let prepared: PreparedRequest
        let context: RequestContext

        @inline(never)
        init(_ run: Run) throws {
            (response, request) = try run.accepted()
            prepared = try run.authorizedRequest()
            context = run.context
        }
    }

    /// Step 8: decodes the accepted response (from the network or the cache) into `run.value`.
    @inline(never)
    func decode(_ requestable: any Requestable, _ run: Run) throws {
        let (response, _) = try run.accepted()
        let decodingAt = ContinuousClock.now
        defer { run.metrics.decoding = ContinuousClock.now - decodingAt }
        do {
            run.value = try requestable.decode(response, context: decodingContext)
        } catch {
            throw wrap(error, .decoding, "the response could not be decoded")
        }
    }

    func checkDeadline(_ run: Run, before step: String) throws {
        guard let deadline = run.context.deadline, clock.now >= deadline else { return }
        throw GatewayError(.timeout, "\(deadlineName(run)) passed before \(step)",
                           fix: deadlineFix, response: run.response)
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
        return run.filled(failure)
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
