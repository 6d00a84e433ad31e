import Foundation

/// The cache look-up stage: with a `ResponseCache`, between steps 1 and 2.
///
/// The request is built (step 1) once here, its `CachePlan` made (key, policy), and the store
/// asked (unless `networkOnly`). A fresh entry (`cacheFirst`) or any entry (`cacheOnly`) answers
/// at once: decoded by the requestable, without queue, auth or transport. Otherwise steps 2–7
/// run as one network call that identical requests in flight share (a stale entry's validators
/// go with it), the request that started it decodes the answer there (step 8), and only an
/// answer that decoded is stored, or refreshes the entry (step 9); each request that joined the
/// call decodes the answer itself. Under `networkFirst` (and `cacheAndNetwork`), a network
/// failure is answered from the entry when there is one. An entry that does not decode into the
/// request's type (before it answers, or before its validators are sent) is removed with one
/// warning and the request goes on as on a miss. Requests the cache does not store run steps
/// 2–9 as they are, and a successful unsafe one invalidates what it changed.
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
        if try await answered(requestable, lookup, cache: cache, run) { return }
        if lookup.revalidates { await checkRevalidated(requestable, lookup, cache) }
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
            try await fallBack(after: error, requestable, lookup, cache, run)
        }
    }

    /// Answers a failed network call from the stored entry where the policy allows it;
    /// otherwise (or when the entry does not decode, which removes it) rethrows.
    @inline(never)
    private func fallBack(after error: any Error, _ requestable: any Requestable, _ lookup: CacheLookup,
                          _ cache: ResponseCache, _ run: Run) async throws
    {
        guard let failure = error as? GatewayError, lookup.fallsBack(after: failure), let entry = lookup.entry else {
            throw error
        }
        if let undecodable = try answer(requestable, from: entry, fresh: entry.isFresh(at: cache.now()),
                                        lookup.prepared, run)
        {
            await cache.evict(entry, undecodable: undecodable)
            throw error
        }
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
    /// `cacheOnly`; otherwise `false`: the network is asked. An entry that does not decode is
    /// removed (with a warning) and counts as a miss.
    @inline(never)
    private func answered(_ requestable: any Requestable, _ lookup: CacheLookup, cache: ResponseCache,
                          _ run: Run) async throws -> Bool
    {
        guard let plan = lookup.plan else { return false }
        let now = cache.now()
        if let entry = lookup.entry, plan.policy == .cacheOnly || (plan.policy == .cacheFirst && entry.isFresh(at: now)) {
            guard let undecodable = try answer(requestable, from: entry, fresh: entry.isFresh(at: now),
                                               lookup.prepared, run)
            else { return true }
            lookup.entry = nil
            await cache.evict(entry, undecodable: undecodable)
        }
        guard plan.policy != .cacheOnly else {
            throw GatewayError(
                .cacheMiss, "\(requestable.name) is not in the cache, and its cache policy is cacheOnly",
                fix: "fetch it once with another policy (cacheFirst, networkFirst), or catch .cacheMiss")
        }
        return false
    }

    /// Answers from a stored entry: decoded by the requestable, nothing sent.
    ///
    /// - Returns: `nil` when answered; the decoding error when the entry does not decode (`run`
    ///   is then left without a request, response or outcome).
    private func answer(_ requestable: any Requestable, from entry: CacheEntry, fresh: Bool,
                        _ prepared: PreparedRequest, _ run: Run) throws -> (any Error)?
    {
        run.request = HTTPRequest(method: prepared.method, url: prepared.url, headers: prepared.headers)
        run.response = entry.response
        do {
            try decode(requestable, run)
        } catch {
            if error is CancellationError { throw error }
            run.request = nil
            run.response = nil
            return error
        }
        run.metrics.cacheOutcome = fresh ? .hit : .stale
        return nil
    }

    /// Before a stale entry's validators are sent: decodes the entry, whose body a `304` would
    /// answer with, into `lookup.revalidatedValue`; an entry that does not decode is removed
    /// (with a warning), and the request goes without validators, as on a miss.
    @inline(never)
    private func checkRevalidated(_ requestable: any Requestable, _ lookup: CacheLookup, _ cache: ResponseCache)
        async
    {
        guard let entry = lookup.entry else { return }
        do {
            lookup.revalidatedValue = try requestable.decode(entry.response, context: decodingContext)
        } catch {
            lookup.entry = nil
            await cache.evict(entry, undecodable: error)
        }
    }

    /// Steps 2–9 as one call, shared by identical requests in flight when the cache says so;
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

    /// After the network call: its metrics, request and response in `run`, and the value the
    /// call decoded (step 8) for the request that started it; a request that joined decodes the
    /// answer itself (it may ask for another type).
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
        guard !joined else { return try decode(requestable, run) }
        if let failure = result.decodingFailure { throw failure }
        run.value = result.value
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
    /// The stored entry decoded, when its validators are sent: a `304` answers with it.
    var revalidatedValue: (any Sendable)?

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

    /// Whether the network call sends the stored entry's validators: a REST entry with an `ETag`
    /// or a `Last-Modified`.
    var revalidates: Bool {
        guard let entry, plan?.rest != nil else { return false }
        return entry.etag != nil || entry.lastModified != nil
    }

    /// Whether a network failure is answered from the stored entry (`networkFirst`, `cacheAndNetwork`).
    func fallsBack(after failure: GatewayError) -> Bool {
        guard let policy = plan?.policy, policy == .networkFirst || policy == .cacheAndNetwork else { return false }
        return Pipeline.isNetworkFailure(failure)
    }
}
