import Foundation

/// The cache look-up stage: with a `ResponseCache`, between steps 1 and 2.
///
/// The request is built (step 1) once here, its `CachePlan` made (key, policy), and the store
/// asked (unless `networkOnly`). A fresh entry (`cacheFirst`) or any entry (`cacheOnly`) answers
/// at once: decoded by the requestable, without queue, auth or transport. Otherwise steps 2–7
/// run as one network call that identical requests in flight share (a stale entry's validators
/// go with it), step 9 stores or refreshes the entry there, and each request decodes the answer
/// itself (step 8). Under `networkFirst` (and `cacheAndNetwork`), a network failure is answered
/// from the entry when there is one. Requests the cache does not store run steps 2–9 as they
/// are, and a successful unsafe one invalidates what it changed.
extension Pipeline {
    /// Steps 1–9, through the response cache when the provider has one.
    @inline(never)
    func lookUp(_ requestable: any Requestable, clockStart: ContinuousClock.Instant, _ run: Run) async throws {
        guard let cache = responseCache, run.refresh == nil else {
            try await admit(requestable, clockStart: clockStart, run)
            return
        }
        // 1. Build, once: the stages after it are handed the result.
        var prepared: PreparedRequest
        do {
            prepared = try requestable.prepare(baseURL: baseURL)
        } catch {
            throw wrap(error, .invalidRequest, "the request could not be built")
        }
        var headers = configuration.headers
        headers.merge(prepared.headers)
        prepared.headers = headers
        let encoding = ParameterEncodingContext(json: configuration.jsonEncoding, endpoint: prepared.name)

        let lookingUpAt = ContinuousClock.now
        guard let plan = await cache.plan(prepared, tokens: tokens, auth: auth, encoding: encoding) else {
            run.metrics.cacheLookup = ContinuousClock.now - lookingUpAt
            run.metrics.cacheOutcome = .notCacheable
            try await admit(Prebuilt(base: requestable, prepared: prepared), clockStart: clockStart, run)
            let (response, request) = try run.accepted()
            await cache.invalidate(after: prepared, request: request, response: response)
            return
        }
        var entry: CacheEntry?
        if plan.policy != .networkOnly {
            do {
                entry = try await cache.store.get(plan.key, now: cache.now())
            } catch {
                // A store that cannot be read is a miss, except where it is the only answer.
                if plan.policy == .cacheOnly { throw error }
            }
        }
        run.metrics.cacheLookup = ContinuousClock.now - lookingUpAt
        let now = cache.now()
        if let entry, plan.policy == .cacheOnly || (plan.policy == .cacheFirst && entry.isFresh(at: now)) {
            return try answer(requestable, from: entry, fresh: entry.isFresh(at: now), prepared, run)
        }
        guard plan.policy != .cacheOnly else {
            throw GatewayError(
                .cacheMiss, "\(requestable.name) is not in the cache, and its cache policy is cacheOnly",
                fix: "fetch it once with another policy (cacheFirst, networkFirst), or catch .cacheMiss")
        }
        do {
            let result = try await network(requestable, prepared, plan: plan, entry: entry, cache: cache,
                                           context: run.context, clockStart: clockStart,
                                           interruption: run.interruption)
            let lookup = run.metrics.cacheLookup
            run.metrics = result.0.metrics
            run.metrics.cacheLookup = lookup
            run.metrics.cacheOutcome = result.joined ? .shared : result.0.outcome
            run.request = result.0.request
            run.response = result.0.response
            run.value = try decode(requestable, result.0.response, run)
        } catch let failure as GatewayError
            where (plan.policy == .networkFirst || plan.policy == .cacheAndNetwork) && Self.isNetworkFailure(failure)
        {
            guard let entry else { throw failure }
            return try answer(requestable, from: entry, fresh: entry.isFresh(at: cache.now()), prepared, run)
        }
    }

    /// Answers from a stored entry: decoded by the requestable, nothing sent.
    private func answer(_ requestable: any Requestable, from entry: CacheEntry, fresh: Bool,
                        _ prepared: PreparedRequest, _ run: Run) throws
    {
        run.metrics.cacheOutcome = fresh ? .hit : .stale
        run.request = HTTPRequest(method: prepared.method, url: prepared.url, headers: prepared.headers)
        run.response = entry.response
        run.value = try decode(requestable, entry.response, run)
    }

    /// Step 8 for an answer the cache stage produced.
    private func decode(_ requestable: any Requestable, _ response: HTTPResponse, _ run: Run) throws
        -> any Sendable
    {
        let decodingAt = ContinuousClock.now
        defer { run.metrics.decoding = ContinuousClock.now - decodingAt }
        do {
            return try requestable.decode(response, context: ResponseDecodingContext(json: configuration.jsonDecoding))
        } catch {
            throw wrap(error, .decoding, "the response could not be decoded")
        }
    }

    /// Steps 2–7 and 9 as one call, shared by identical requests in flight when the cache says so;
    /// the call runs under the context of the request that starts it (its observers' events).
    @inline(never)
    private func network(
        _ requestable: any Requestable, _ prepared: PreparedRequest, plan: CachePlan, entry: CacheEntry?, cache: ResponseCache,
        context: RequestContext, clockStart: ContinuousClock.Instant, interruption: Interruption
    ) async throws -> (SharedCall.Result, joined: Bool) {
        var sent = prepared
        var conditional = false
        if let entry, plan.rest != nil {
            if let etag = entry.etag {
                sent.headers["If-None-Match"] = etag
                conditional = true
            }
            if let lastModified = entry.lastModified {
                sent.headers["If-Modified-Since"] = lastModified
                conditional = true
            }
        }
        let generation = cache.generation
        let leg = NetworkLeg(base: requestable, prepared: sent, conditional: conditional)
        let revalidated = conditional ? entry : nil
        // A call of its own ends with this request's interruption; a shared one runs in a task
        // of its own, which a sharer leaves when interrupted.
        let deduplicates = cache.deduplicatesRequests
        let work: @Sendable () async throws -> SharedCall.Result = { [self] in
            let shared = Run(context: context, interruption: deduplicates ? Interruption() : interruption)
            do {
                try await admit(leg, clockStart: clockStart, shared)
                let (response, request) = try shared.accepted()
                let writingAt = ContinuousClock.now
                let (answer, outcome) = await cache.settle(response, plan: plan, entry: revalidated,
                                                           generation: generation)
                shared.metrics.cacheWrite = ContinuousClock.now - writingAt
                return SharedCall.Result(response: answer, request: request, metrics: shared.metrics, outcome: outcome)
            } catch var failure as GatewayError {
                if failure.request == nil { failure.request = shared.request }
                if failure.response == nil, failure.kind != .transport { failure.response = shared.response }
                throw failure
            }
        }
        guard deduplicates else { return (try await work(), false) }
        let key = plan.key
        return try await interruptibly(interruption) { try await cache.share(key, work) }
    }

    /// Whether `failure` means the network (or the server) failed, so a cached answer may stand in.
    static func isNetworkFailure(_ failure: GatewayError) -> Bool {
        switch failure.kind {
        case .transport, .timeout, .tooManyAttempts, .invalidResponse: true
        case .status: (failure.response?.status ?? 0) >= 500
        default: false
        }
    }
}

/// A requestable whose request is already built (by the cache look-up stage).
struct Prebuilt: Requestable {
    let base: any Requestable
    let prepared: PreparedRequest

    var name: String { base.name }
    func prepare(baseURL: URL) throws -> PreparedRequest { prepared }
    func validate(_ response: HTTPResponse, context: ResponseDecodingContext) -> GatewayError? {
        base.validate(response, context: context)
    }
    func decode(_ response: HTTPResponse, context: ResponseDecodingContext) throws -> any Sendable {
        try base.decode(response, context: context)
    }
}

/// The network part of a cached request: built already, a `304` to a conditional request
/// accepted, and the response handed back undecoded (each request sharing it decodes it).
struct NetworkLeg: Requestable {
    let base: any Requestable
    let prepared: PreparedRequest
    let conditional: Bool

    var name: String { base.name }
    func prepare(baseURL: URL) throws -> PreparedRequest { prepared }
    func validate(_ response: HTTPResponse, context: ResponseDecodingContext) -> GatewayError? {
        if conditional, response.status == 304 { return nil }
        return base.validate(response, context: context)
    }
    func decode(_ response: HTTPResponse, context: ResponseDecodingContext) throws -> HTTPResponse { response }
}
