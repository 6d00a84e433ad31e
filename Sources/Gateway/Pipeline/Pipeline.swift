import Foundation

/// The one ordered path every request takes, REST endpoints and GraphQL operations alike.
/// `run(_:id:kind:)` reads top to bottom in this order, for every configuration:
///
/// 1. **Build**: the `Requestable` makes a `PreparedRequest` (URL joined safely, fixed query
///    items, headers, unencoded parameters, priority, retryability, where step 7 puts the body:
///    in memory, a download's file, or a stream's caller; a GraphQL operation with persisted queries on, its
///    hash-only form); the provider's default headers are merged under its own, header fields
///    with line breaks are refused, and the call's name and deadline are fixed (one deadline covers every
///    attempt). A credential refresh request (sent through a `RefreshClient`) is marked as one
///    here: it is queued as a `blocker` and skips steps 2 and 4.
/// 2. **Cache look-up** (`Configuration.cache`): the request's cache plan is made (its key,
///    from the URL a GET goes to once its encoders made the query; its policy; its partition,
///    which the auth stage names) and the store asked. A fresh entry (`cacheFirst`) or any entry
///    (`cacheOnly`) answers at once, decoded as in step 9 (an entry that does not decode is
///    removed, with a warning, and the request goes on as on a miss); a `cacheOnly` request
///    without one fails with `.cacheMiss`, and without a response cache with
///    `.cacheNotConfigured`. A stale REST entry's validators go with the request. A download or
///    a stream skips this step and step 10.
/// 3. **Queue**: `Configuration.queue` admits the request by priority under its concurrency cap
///    (observers: `enqueued`, `dequeued`). Its ticket is released exactly once: when step 8
///    has accepted a response or the request failed, and at once when its task is cancelled. A
///    stream's ticket goes when its head is accepted: its body flows outside the queue's cap.
/// 4. **Auth**: the auth stage attaches credentials: with a token store the token stage, which
///    waits while the credential is refreshed and attaches it to requests that require
///    authentication and go to the provider's own origins; else `Configuration.auth`.
/// 5. **Encode**: cancellation and the deadline are checked, then each parameter encoder runs,
///    in order, into a fresh `HTTPRequest` (observers: `encoded`); after an auth replay the
///    body encoded before is sent again byte for byte. A download that has part of its file
///    asks for the rest (`Range`, `If-Range`); an upload's request carries the reporter of its
///    progress, which the transport calls as the body goes out.
/// 6. **Adapt**: each interceptor's `adapt`, in order; with a token store, the token stage runs
///    first and re-checks the credential before every attempt.
/// 7. **Transport**: with a reachability monitor, an unusable network fails the attempt or,
///    when the request waits for connectivity, holds it until the network is back (bounded by
///    the deadline); then the transport sends the request, and its body goes where the request
///    was built to put it (observers: `sent`, `received`): in one of three forms, collected in
///    memory up to the response limit; for a download, a success's body written to its
///    partial file as it arrives (appended after a `206` for the rest, from the start otherwise);
///    for a stream, a success's body held unread for the caller, the call's deadline bounding
///    only the wait for the head. A download's or a stream's failed status has its body
///    collected, bounded by the provider's response limit.
/// 8. **Decide**: each interceptor's `decide`, in order, until one says more than `.continue`
///    (the token stage first: a refused credential is refreshed and the request replayed);
///    then, for a GraphQL operation sent by its persisted-query hash alone, a server that
///    does not know the hash is sent the text with it; then `Configuration.retryPolicy`
///    decides whether a retryable status or transport failure is sent again (back-off or
///    `Retry-After`, never past the deadline); then the requestable's `validate`. `.retry`
///    goes back to step 5 (at most `Configuration.maxAttempts` attempts; observers:
///    `retried`), `.replay` to step 4 (at most `Configuration.maxAuthReplays`; observers:
///    `replayed`), `.fail` ends the request, `.done` takes its response as the success.
///    Identical cacheable requests in flight share one pass through steps 3–8 when the cache
///    says so; when its store coordinates the instances sharing it (`CacheFlightCoordinator`),
///    the one request of this instance that would make that pass first asks which instance
///    makes it: this one (holding the key's lease until step 10), or another, whose stored entry
///    then answers as if it were this pass's response (waiting bounded by the deadline). With
///    `networkFirst` (and `cacheAndNetwork`) a network failure is answered from the stored entry.
/// 9. **Decode**: the requestable decodes the accepted response (a `304`'s: the stored one); a
///    download's complete file is moved to its destination; a stream's body is handed to its
///    caller, and flows on after this request's task has ended.
/// 10. **Cache store**: a response that decoded is stored (or refreshes its entry) when the
///     cache's rules allow; a successful unsafe request invalidates what it changed. Nothing
///     that failed to decode is stored. A lease held on the key among instances is then ended,
///     and the instances waiting on it read the entry.
/// 11. **Metrics**: the total time is recorded, and the `Response` is returned with its
///     `RequestMetrics`; observers get `finished` exactly once for every request, however it
///     ended (a stream, once its head was accepted).
///
/// Errors leave as `GatewayError` with the endpoint name, the request and the response filled
/// in; a request whose task was cancelled leaves with `CancellationError`.
///
/// Each request runs in a task of its own, which its caller's cancellation and
/// `Provider.invalidate()` cancel: Swift task cancellation is the one way a request is ended.
final class Pipeline: Sendable {
    let baseURL: URL
    let transport: any Transport
    let configuration: Provider.Configuration
    /// The requests under way, and the numbering of requests.
    let inFlight = InFlightRequests()
    /// Step 2: the response cache, if the provider has one.
    let cache: ResponseCache?
    /// Step 4: the token stage when the provider has a token store, else `configuration.auth`.
    let auth: any AuthStage
    /// Steps 6 and 8: the token stage first when the provider has a token store, then
    /// `configuration.interceptors`.
    let interceptors: [any Interceptor]
    /// The provider's token coordinator, if it has one.
    let tokens: TokenCoordinator?
    /// What step 9 and the endpoints' validation decode with.
    let decodingContext: ResponseDecodingContext
    /// Whether the provider's header fields pass `HeaderValidation` (checked once, here).
    let defaultHeadersPass: Bool

    init(baseURL: URL, transport: any Transport, configuration: Provider.Configuration) {
        self.baseURL = baseURL
        self.transport = transport
        self.configuration = configuration
        cache = configuration.cache
        decodingContext = ResponseDecodingContext(json: configuration.jsonDecoding)
        defaultHeadersPass = (try? HeaderValidation.check(configuration.headers)) != nil
        let coordinator = configuration.makeTokenCoordinator()
        tokens = coordinator
        guard let coordinator else {
            auth = configuration.auth
            interceptors = configuration.interceptors
            return
        }
        let link = PipelineLink()
        let stage = TokenAuthentication(coordinator: coordinator, pipeline: link,
                                        origins: Set(configuration.credentialOrigins.compactMap(Origin.init)))
        auth = stage
        interceptors = [stage] + configuration.interceptors
        link.attach(self)
    }

    var clock: any TimeSource { configuration.clock }

    /// Every step, in the order of the list above.
    func run(_ requestable: any Requestable, id: RequestID, kind: RequestKind) async throws -> Delivery {
        defer { inFlight.remove(id.rawValue) }
        var call = Call(id: id, baseURL: baseURL, kind: kind)
        do {
            // 1. Build.
            let prepared = try build(requestable, &call)

            // 2. Cache look-up.
            var lookup = try await lookUp(prepared, &call)
            if let stored = try await answer(requestable, prepared, from: &lookup, &call) {
                return finished(stored.value, stored.response, stored.request, &call)
            }

            // 3–8. Queue, auth, encode, adapt, transport, decide: once, or shared by identical
            // requests in flight; under networkFirst a failure may be answered from the cache.
            let exchange: Exchange
            do {
                exchange = try await network(requestable, prepared, lookup, call)
            } catch let failure as GatewayError where lookup?.fallsBack(after: failure) == true {
                guard let stored = try await answer(requestable, prepared, fallingBackFrom: lookup, &call) else {
                    throw failure
                }
                return finished(stored.value, stored.response, stored.request, &call)
            }
            call.took(exchange)

            // 9. Decode (after a 304, the stored entry decoded in step 2 answers).
            let value = try lookup?.value(confirmedBy: exchange)
                ?? decode(requestable, exchange.answer, to: exchange.request,
                          persistedQuery: exchange.persistedQuery, &call)

            // 10. Cache store.
            await store(exchange, prepared, lookup, &call)

            // 11. Metrics.
            return finished(value, exchange.answer, exchange.request, &call)
        } catch {
            throw failed(error, &call)
        }
    }

    /// Step 1: the requestable's request, the provider's header fields under its own; the
    /// call is named after it.
    func build(_ requestable: any Requestable, _ call: inout Call) throws -> PreparedRequest {
        var prepared: PreparedRequest
        do {
            prepared = try requestable.prepare(baseURL: baseURL, graphQL: configuration.graphQL)
        } catch {
            call.named(requestable.name)
            throw wrap(error, .invalidRequest, "the request could not be built")
        }
        call.named(prepared.name)
        var headers = configuration.headers
        headers.merge(prepared.headers)
        // The provider's own fields were checked once, when it was made: when they passed, only
        // the requestable's can fail (the merged list is theirs after the provider's).
        try HeaderValidation.check(defaultHeadersPass ? prepared.headers : headers)
        prepared.headers = headers
        if prepared.cache.policy == .cacheOnly, cache == nil { throw cacheNotConfigured(prepared) }
        if call.refresh != nil {
            prepared.priority = .blocker
            prepared.requiresAuthentication = false
        }
        call.fix(prepared, configuration: configuration, now: clock.now)
        return prepared
    }

    /// Step 9: the accepted response decoded by the requestable; a failure carries the request
    /// and the response.
    func decode(_ requestable: any Requestable, _ response: HTTPResponse, to request: HTTPRequest,
                persistedQuery: PersistedQueryOutcome, _ call: inout Call) throws -> any Sendable {
        let decoding = Stopwatch.start()
        defer { call.metrics.decoding = decoding.elapsed }
        var context = decodingContext
        context.persistedQuery = persistedQuery
        do {
            return try requestable.decode(response, context: context)
        } catch {
            guard var failure = wrap(error, .decoding, "the response could not be decoded") as? GatewayError else {
                throw error
            }
            if failure.request == nil { failure.request = request }
            if failure.response == nil { failure.response = response }
            throw failure
        }
    }

    /// Step 11 for a request that succeeded: the total time and the `finished` event.
    private func finished(_ value: any Sendable, _ response: HTTPResponse, _ request: HTTPRequest,
                          _ call: inout Call) -> Delivery {
        call.metrics.total = call.stopwatch.elapsed
        let delivery = Delivery(value: value, response: response, request: request, metrics: call.metrics)
        notify { $0.requestFinished(.success(response), metrics: delivery.metrics, context: call.context) }
        return delivery
    }

    /// Step 11 for a request that failed: the total time, the `finished` event, and the error
    /// to throw: `CancellationError` when the task was cancelled, otherwise a `GatewayError`
    /// with the endpoint, request and response filled in where missing.
    private func failed(_ error: any Error, _ call: inout Call) -> any Error {
        call.metrics.total = call.stopwatch.elapsed
        let failure: any Error
        if error.isCancellation || Task.isCancelled {
            failure = CancellationError()
        } else {
            var described = error as? GatewayError ?? GatewayError(.transport, "the request failed", underlying: error)
            if described.endpoint == nil { described.endpoint = call.context.name }
            failure = described
        }
        let outcome: RequestOutcome = (failure as? GatewayError).map { .failure($0) } ?? .cancelled
        notify { $0.requestFinished(outcome, metrics: call.metrics, context: call.context) }
        return failure
    }

    /// The error for a `cacheOnly` request through a provider without a response cache.
    private func cacheNotConfigured(_ prepared: PreparedRequest) -> GatewayError {
        GatewayError(.cacheNotConfigured,
                     "\(prepared.name) asks for the cache policy cacheOnly, but the provider has no response cache "
                        + "to answer from, so nothing was sent",
                     fix: "give the provider a cache (config.cache = ResponseCache(store: MemoryCacheStore()), or a "
                        + "SQLiteCacheStore), or choose another cache policy", endpoint: prepared.name)
    }

    func notify(_ event: (any Observer) -> Void) {
        for observer in configuration.observers { event(observer) }
    }

    /// `CancellationError` and `GatewayError` as they are; anything else as a `GatewayError` of `kind`.
    func wrap(_ error: any Error, _ kind: GatewayError.Kind, _ message: String) -> any Error {
        if error.isCancellation || error is GatewayError { return error }
        return GatewayError(kind, message, underlying: error)
    }
}

/// What a finished request hands back before it is given its type again. Held by reference:
/// it leaves the request's task through the standard library's generic `Task.value` and
/// `withTaskCancellationHandler`, which copy a value field by field.
final class Delivery: Sendable {
    let value: any Sendable
    let response: HTTPResponse
    let request: HTTPRequest
    let metrics: RequestMetrics

    init(value: any Sendable, response: HTTPResponse, request: HTTPRequest, metrics: RequestMetrics) {
        self.value = value
        self.response = response
        self.request = request
        self.metrics = metrics
    }

    /// The delivery as the response of a requestable named `name` (worked out only for the
    /// error) whose value is a `Value`.
    func response<Value: Sendable>(as type: Value.Type, name: @autoclosure () -> String) throws -> Response<Value> {
        switch value {
        case let value as Value:
            return Response(value: value, httpResponse: response, request: request, metrics: metrics)
        default:
            let name = name()
            throw GatewayError(.decoding, "\(name) decoded \(Swift.type(of: value)), not a \(Value.self)",
                               fix: "report this as a bug in Gateway", endpoint: name)
        }
    }
}
