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
        let lookup = try CacheLookup(requestable, self)
        let lookingUpAt = ContinuousClock.now
        await plan(lookup, cache)
        guard lookup.plan != nil else {
            run.metrics.cacheLookup = ContinuousClock.now - lookingUpAt
            return try await uncacheable(requestable, lookup, cache, clockStart: clockStart, run)
        }
        if lookup.reads { try await read(lookup, from: cache) }
        run.metrics.cacheLookup = ContinuousClock.now - lookingUpAt
        if try answered(requestable, lookup, cache: cache, run) { return }
        try await networkFallingBack(requestable, lookup, cache, clockStart, run)
    }

    /// The request's cache plan into `lookup.plan` (`nil`: not cacheable).
    @inline(never)
    private func plan(_ lookup: CacheLookup, _ cache: ResponseCache) async {
        lookup.plan = await cache.plan(lookup.prepared, tokens: tokens, auth: auth, encoding: lookup.encoding)
    }

    /// A request the cache does not store: steps 2–9 as they are; a successful unsafe one
    /// invalidates what it changed.
    @inline(never)
    private func uncacheable(_ requestable: any Requestable, _ lookup: CacheLookup, _ cache: ResponseCache,
                             clockStart: ContinuousClock.Instant, _ run: Run) async throws
    {
        run.metrics.cacheOutcome = .notCacheable
        try await admit(Prebuilt(base: requestable, prepared: lookup.prepared), clockStart: clockStart, run)
        let (response, request) = try run.accepted()
        await cache.invalidate(after: lookup.prepared, request: request, response: response)
    }

    /// The network call; under `networkFirst` (and `cacheAndNetwork`) a network failure is
    /// answered from the stored entry when there is one.
    @inline(never)
    private func networkFallingBack(_ requestable: any Requestable, _ lookup: CacheLookup, _ cache: ResponseCache,
                                    _ clockStart: ContinuousClock.Instant, _ run: Run) async throws
    {
        do {
            try await network(requestable, lookup, cache: cache, clockStart: clockStart, run)
        } catch {
            try fallBack(after: error, requestable, lookup, cache, run)
        }
    }

    /// Answers a failed network call from the stored entry where the policy allows it;
    /// otherwise rethrows.
    @inline(never)
    private func fallBack(after error: any Error, _ requestable: any Requestable, _ lookup: CacheLookup,
                          _ cache: ResponseCache, _ run: Run) throws
    {
        guard let failure = error as? GatewayError, lookup.fallsBack(after: failure), let entry = lookup.entry else {
            throw error
        }
        try answer(requestable, from: entry, fresh: entry.isFresh(at: cache.now()), lookup.prepared, run)
    }

    /// The stored entry for the plan's key into `lookup.entry`; a store that cannot be read is
    /// a miss, except where it is the only answer.
    @inline(never)
    private func read(_ lookup: CacheLookup, from cache: ResponseCache) async throws {
        guard let plan = lookup.plan else { return }
        do {
            lookup.entry = try await cache.store.get(plan.key, now: cache.now())
        } catch {
            if plan.policy == .cacheOnly { throw error }
        }
    }

    /// Answers from the stored entry where the policy says so (`true`); throws a miss under
    /// `cacheOnly`; otherwise `false`: the network is asked.
    @inline(never)
    private func answered(_ requestable: any Requestable, _ lookup: CacheLookup, cache: ResponseCache,
                          _ run: Run) throws -> Bool
    {
        guard let plan = lookup.plan else { return false }
        let now = cache.now()
        if let entry = lookup.entry, plan.policy == .cacheOnly || (plan.policy == .cacheFirst && entry.isFresh(at: now)) {
            try answer(requestable, from: entry, fresh: entry.isFresh(at: now), lookup.prepared, run)
            return true
        }
        guard plan.policy != .cacheOnly else {
            throw GatewayError(
                .cacheMiss, "\(requestable.name) is not in the cache, and its cache policy is cacheOnly",
                fix: "fetch it once with another policy (cacheFirst, networkFirst), or catch .cacheMiss")
        }
        return false
    }

    /// Answers from a stored entry: decoded by the requestable, nothing sent.
    private func answer(_ requestable: any Requestable, from entry: CacheEntry, fresh: Bool,
                        _ prepared: PreparedRequest, _ run: Run) throws
    {
        run.metrics.cacheOutcome = fresh ? .hit : .stale
        run.request = HTTPRequest(method: prepared.method, url: prepared.url, headers: prepared.headers)
        run.response = entry.response
        try decode(requestable, run)
    }

    /// Steps 2–7 and 9 as one call, shared by identical requests in flight when the cache says so;
    /// the call runs under the context of the request that starts it (its observers' events).
    @inline(never)
    private func network(_ requestable: any Requestable, _ lookup: CacheLookup, cache: ResponseCache,
                         clockStart: ContinuousClock.Instant, _ run: Run) async throws
    {
        let call = try NetworkCall(requestable, lookup, cache: cache, clockStart: clockStart, run, self)
        guard cache.deduplicatesRequests else {
            try networkAnswered(requestable, await call.perform(), joined: false, run)
            return
        }
        let (result, joined) = try await interruptibly(run.interruption) { try await cache.share(call.plan.key, call.perform) }
        try networkAnswered(requestable, result, joined: joined, run)
    }

    /// After the network call: its metrics, request and response in `run`, and step 8.
    @inline(never)
    private func networkAnswered(_ requestable: any Requestable, _ result: SharedCall.Result, joined: Bool,
                                 _ run: Run) throws
    {
        let lookup = run.metrics.cacheLookup
        run.metrics = result.metrics
        run.metrics.cacheLookup = lookup
        run.metrics.cacheOutcome = joined ? .shared : result.outcome
        run.request = result.request
        run.response = result.response
        try decode(requestable, run)
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

/// The cache look-up stage's state for one request: the request built once, its plan and the
/// stored entry. A class, so that the stage's suspended frames hold a reference to it.
final class CacheLookup {
    let prepared: PreparedRequest
    let encoding: ParameterEncodingContext
    var plan: CachePlan?
    var entry: CacheEntry?

    /// Step 1: builds the request, the provider's header fields under its own.
    @inline(never)
    init(_ requestable: any Requestable, _ pipeline: Pipeline) throws {
        prepared = try pipeline.prepare(requestable)
        encoding = ParameterEncodingContext(json: pipeline.configuration.jsonEncoding, endpoint: prepared.name)
    }

    /// Whether the store is asked: the request is cacheable and its policy is not `networkOnly`.
    var reads: Bool {
        guard let plan else { return false }
        return plan.policy != .networkOnly
    }

    /// Whether a network failure is answered from the stored entry (`networkFirst`, `cacheAndNetwork`).
    func fallsBack(after failure: GatewayError) -> Bool {
        guard let policy = plan?.policy, policy == .networkFirst || policy == .cacheAndNetwork else { return false }
        return Pipeline.isNetworkFailure(failure)
    }
}

/// The network part of a cached request (steps 2–7 and 9), as one call that identical requests
/// in flight may share.
final class NetworkCall: Sendable {
    let leg: NetworkLeg
    let plan: CachePlan
    /// The entry a `304` revalidates.
    let revalidated: CacheEntry?
    let generation: UInt64
    let context: RequestContext
    let clockStart: ContinuousClock.Instant
    /// The starting request's interruption for a call of its own; a shared call runs in a task
    /// of its own, which a sharer leaves when interrupted.
    let interruption: Interruption
    let cache: ResponseCache
    let pipeline: Pipeline

    @inline(never)
    init(_ requestable: any Requestable, _ lookup: CacheLookup, cache: ResponseCache,
         clockStart: ContinuousClock.Instant, _ run: Pipeline.Run, _ pipeline: Pipeline) throws
    {
        guard let plan = lookup.plan else { throw run.missing("a cache plan") }
        var sent = lookup.prepared
        var conditional = false
        if let entry = lookup.entry, plan.rest != nil {
            if let etag = entry.etag {
                sent.headers["If-None-Match"] = etag
                conditional = true
            }
            if let lastModified = entry.lastModified {
                sent.headers["If-Modified-Since"] = lastModified
                conditional = true
            }
        }
        leg = NetworkLeg(base: requestable, prepared: sent, conditional: conditional)
        self.plan = plan
        revalidated = conditional ? lookup.entry : nil
        generation = cache.generation
        context = run.context
        self.clockStart = clockStart
        interruption = cache.deduplicatesRequests ? Interruption() : run.interruption
        self.cache = cache
        self.pipeline = pipeline
    }

    /// Steps 2–7 through the pipeline, then step 9 through the cache.
    @Sendable
    func perform() async throws -> SharedCall.Result {
        let shared = Pipeline.Run(context: context, interruption: interruption)
        do {
            try await pipeline.admit(leg, clockStart: clockStart, shared)
            return try await settle(shared)
        } catch let failure as GatewayError {
            throw shared.filled(failure)
        }
    }

    /// Step 9: the cache stores or refreshes the entry.
    @inline(never)
    private func settle(_ shared: Pipeline.Run) async throws -> SharedCall.Result {
        let writingAt = ContinuousClock.now
        let response = try shared.accepted().response
        let (answer, outcome) = await cache.settle(response, plan: plan, entry: revalidated, generation: generation)
        return try Self.settled(answer, outcome, since: writingAt, shared)
    }

    @inline(never)
    private static func settled(_ answer: HTTPResponse, _ outcome: CacheOutcome, since writingAt: ContinuousClock.Instant,
                                _ shared: Pipeline.Run) throws -> SharedCall.Result
    {
        shared.metrics.cacheWrite = ContinuousClock.now - writingAt
        return SharedCall.Result(response: answer, request: try shared.accepted().request, metrics: shared.metrics,
                                 outcome: outcome)
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
