import Foundation

/// Steps 2 and 10, and the sharing of steps 3–8 between identical requests (see `Pipeline`).
extension Pipeline {
    /// Step 2: the request's cache plan and stored entry; `nil` without a response cache, for
    /// a credential refresh request, and for a download or a stream.
    func lookUp(_ prepared: PreparedRequest, _ call: inout Call) async throws -> CacheLookup? {
        guard let cache, call.refresh == nil, !prepared.responseBody.bypassesCache else { return nil }
        let lookingUp = Stopwatch.start()
        defer { call.metrics.cacheLookup = lookingUp.elapsed }
        let encoding = ParameterEncodingContext(json: configuration.jsonEncoding, endpoint: prepared.name)
        let generation = cache.generation
        guard let plan = await cache.plan(prepared, auth: auth, encoding: encoding) else {
            call.metrics.cacheOutcome = .notCacheable
            return CacheLookup(generation: generation)
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
        return CacheLookup(generation: generation, plan: plan, entry: entry)
    }

    /// The key step 2 looks `requestable` up by, nothing sent: what `Provider.watch` watches.
    /// `nil` without a response cache and for a request the cache does not keep.
    func cacheKey(for requestable: any Requestable) async throws -> CacheKey? {
        guard let cache else { return nil }
        var call = Call(id: RequestID(0), baseURL: baseURL, kind: .ordinary)
        let prepared = try build(requestable, &call)
        let encoding = ParameterEncodingContext(json: configuration.jsonEncoding, endpoint: prepared.name)
        return await cache.plan(prepared, auth: auth, encoding: encoding)?.key
    }

    /// Step 2's answer: the stored entry, decoded, where the policy lets it answer; `nil` when
    /// the network is asked. An entry that does not decode is removed (with a warning) and
    /// counts as a miss; so does a stale entry whose validators would go with the request (a
    /// `304` answers with its body).
    ///
    /// - Throws: `.cacheMiss` for a `cacheOnly` request the cache cannot answer.
    func answer(_ requestable: any Requestable, _ prepared: PreparedRequest, from lookup: inout CacheLookup?,
                _ call: inout Call) async throws -> StoredAnswer? {
        guard let cache, let looked = lookup, let policy = looked.plan?.policy else { return nil }
        let now = cache.now()
        if let entry = looked.entry,
           policy == .cacheOnly || (policy == .cacheFirst && entry.isFresh(at: now))
        {
            if let answered = try await answer(requestable, with: entry, prepared, fresh: entry.isFresh(at: now), &call) {
                return answered
            }
            lookup = looked.withoutEntry()
        }
        guard policy != .cacheOnly else {
            throw GatewayError(
                .cacheMiss, "\(requestable.name) is not in the cache, and its cache policy is cacheOnly",
                fix: "fetch it once with another policy (cacheFirst, networkFirst), or catch .cacheMiss")
        }
        if let looked = lookup, let entry = looked.revalidated {
            do {
                let value = try requestable.decode(entry.response, context: decodingContext)
                lookup = looked.revalidating(decoded: value)
            } catch {
                lookup = looked.withoutEntry()
                await cache.evict(entry, undecodable: error)
            }
        }
        return nil
    }

    /// Under `networkFirst` (and `cacheAndNetwork`): the stored entry, decoded, for a request
    /// whose network exchange failed; `nil` when there is none or it does not decode.
    func answer(_ requestable: any Requestable, _ prepared: PreparedRequest, fallingBackFrom lookup: CacheLookup?,
                _ call: inout Call) async throws -> StoredAnswer? {
        guard let cache, let entry = lookup?.entry else { return nil }
        return try await answer(requestable, with: entry, prepared, fresh: entry.isFresh(at: cache.now()), &call)
    }

    /// Answers from a stored entry: decoded by the requestable, nothing sent; `nil`, and the
    /// entry removed, when it does not decode.
    private func answer(_ requestable: any Requestable, with entry: CacheEntry, _ prepared: PreparedRequest,
                        fresh: Bool, _ call: inout Call) async throws -> StoredAnswer?
    {
        let value: any Sendable
        let request = HTTPRequest(method: prepared.method, url: prepared.url, headers: prepared.headers,
                                  deadlineOffset: nil)
        do {
            value = try decode(requestable, entry.response, to: request, persistedQuery: .notUsed, &call)
        } catch {
            if error.isCancellation { throw error }
            await cache?.evict(entry, undecodable: error)
            return nil
        }
        call.metrics.cacheOutcome = fresh ? .hit : .stale
        return StoredAnswer(value: value, response: entry.response, request: request)
    }

    /// Steps 3–8 for a request through the cache: shared by identical requests in flight when
    /// the cache says so (on this instance, and on every instance sharing a store that coordinates
    /// them); a stale entry's validators go with it, and the cache settles the answer (a `304`
    /// answers with the stored body).
    func network(_ requestable: any Requestable, _ prepared: PreparedRequest, _ lookup: CacheLookup?, _ call: Call)
        async throws -> Exchange
    {
        guard let cache, let lookup, let plan = lookup.plan else {
            var exchange = try await exchange(requestable, prepared, call)
            exchange.outcome = lookup == nil ? .notConsulted : .notCacheable
            return exchange
        }
        let revalidated = lookup.revalidated
        let sent = lookup.conditional(prepared)
        guard cache.deduplicatesRequests else {
            return try await settledExchange(requestable, sent, call, cache, plan, revalidating: revalidated)
        }
        var (exchange, joined) = try await cache.share(plan.key) {
            try await self.coordinatedExchange(requestable, sent, call, cache, plan, revalidating: revalidated)
        }
        if joined {
            exchange.joined = true
            exchange.outcome = .shared
            exchange.flight = nil
        }
        return exchange
    }

    /// Steps 3–8 for the one request of this instance that goes to the network for its key: when
    /// the store coordinates instances, only the instance holding the key's lease calls the
    /// network (and keeps the lease for step 10); the others answer with the entry it stored.
    private func coordinatedExchange(_ requestable: any Requestable, _ sent: PreparedRequest, _ call: Call,
                                     _ cache: ResponseCache, _ plan: CachePlan, revalidating revalidated: CacheEntry?)
        async throws -> Exchange
    {
        let freshAt = plan.policy == .cacheFirst ? cache.now() : nil
        let flight = await cache.flightCoordinator?.flight(for: plan.key, freshAt: freshAt,
                                                           deadline: call.context.deadline) ?? .alone
        switch flight {
        case .alone:
            return try await settledExchange(requestable, sent, call, cache, plan, revalidating: revalidated)
        case .follow(let entry):
            var exchange = Exchange(request: HTTPRequest(method: sent.method, url: sent.url, headers: sent.headers,
                                                         deadlineOffset: nil),
                                    answer: entry.response, metrics: call.metrics, attempt: 0,
                                    persistedQuery: .notUsed)
            exchange.outcome = .shared
            exchange.joined = true
            return exchange
        case .lead(let lease):
            do {
                var exchange = try await settledExchange(requestable, sent, call, cache, plan, revalidating: revalidated)
                exchange.flight = lease
                return exchange
            } catch {
                await lease.end(stored: false)
                throw error
            }
        }
    }

    /// Steps 3–8 with the cache's settlement of the answer (a `304` answers with the stored body).
    private func settledExchange(_ requestable: any Requestable, _ sent: PreparedRequest, _ call: Call,
                                 _ cache: ResponseCache, _ plan: CachePlan, revalidating revalidated: CacheEntry?)
        async throws -> Exchange
    {
        var exchange = try await exchange(requestable, sent, call, revalidating: revalidated != nil)
        let settlement = cache.settlement(exchange.answer, plan: plan, entry: revalidated)
        exchange.answer = settlement.answer
        exchange.outcome = settlement.outcome
        exchange.entry = settlement.entry
        return exchange
    }

    /// Step 10 (nothing without a look-up): the entry the cache made of a decoded answer is
    /// written (timed); a request the cache does not store invalidates what it changed when it
    /// succeeded. A request that joined another's exchange writes nothing: the one that ran it
    /// does, and then ends its lease on the key among instances, if it holds one.
    func store(_ exchange: Exchange, _ prepared: PreparedRequest, _ lookup: CacheLookup?, _ call: inout Call) async {
        guard let cache, let lookup, !exchange.joined else { return }
        guard lookup.plan != nil else {
            await cache.invalidate(after: prepared, request: exchange.request, response: exchange.answer)
            return
        }
        var stored = false
        if let entry = exchange.entry {
            let writing = Stopwatch.start()
            stored = await cache.write(entry, generation: lookup.generation)
            call.metrics.cacheWrite = writing.elapsed
        }
        await exchange.flight?.end(stored: stored)
    }
}

/// A stored entry decoded as a request's answer (step 2, or under `networkFirst` after the
/// network failed): step 11 makes it the request's delivery.
struct StoredAnswer: Sendable {
    let value: any Sendable
    let response: HTTPResponse
    /// The request the entry answers, as it would have been sent (nothing was).
    let request: HTTPRequest
}

/// Step 2's result for one request: its cache plan (`nil`: not cacheable) and the stored
/// entry, if any. A reference: the steps after step 2 share one look-up instead of copying it.
final class CacheLookup: Sendable {
    /// The cache's generation at the look-up: a write is dropped when an invalidation came since.
    let generation: UInt64
    let plan: CachePlan?
    let entry: CacheEntry?
    /// The entry whose validators go with the request, decoded when they were added: what a
    /// `304` answers with, so that step 9 does not decode it again.
    let revalidatedValue: (any Sendable)?

    /// The stored entry whose validators go with the request: a REST entry with an `ETag` or a
    /// `Last-Modified`.
    var revalidated: CacheEntry? {
        guard let entry, plan?.isGraphQL == false, entry.etag != nil || entry.lastModified != nil else { return nil }
        return entry
    }

    init(generation: UInt64, plan: CachePlan? = nil, entry: CacheEntry? = nil,
         revalidatedValue: (any Sendable)? = nil) {
        self.generation = generation
        self.plan = plan
        self.entry = entry
        self.revalidatedValue = revalidatedValue
    }

    /// The look-up without its stored entry (it did not decode).
    func withoutEntry() -> CacheLookup {
        CacheLookup(generation: generation, plan: plan)
    }

    /// The look-up with its revalidated entry decoded.
    func revalidating(decoded value: any Sendable) -> CacheLookup {
        CacheLookup(generation: generation, plan: plan, entry: entry, revalidatedValue: value)
    }

    /// The value step 9 answers with when the exchange's `304` confirmed the stored entry this
    /// request decoded in step 2; `nil` otherwise (the answer is decoded then).
    func value(confirmedBy exchange: Exchange) -> (any Sendable)? {
        exchange.outcome == .revalidated ? revalidatedValue : nil
    }

    /// `prepared` with the validators of the entry it revalidates, if any.
    func conditional(_ prepared: PreparedRequest) -> PreparedRequest {
        guard let revalidated else { return prepared }
        var sent = prepared
        if let etag = revalidated.etag { sent.headers["If-None-Match"] = etag }
        if let lastModified = revalidated.lastModified { sent.headers["If-Modified-Since"] = lastModified }
        return sent
    }

    /// Whether a failed exchange is answered from the stored entry (`networkFirst`,
    /// `cacheAndNetwork`, and a failure of the network or the server).
    func fallsBack(after failure: GatewayError) -> Bool {
        guard entry != nil, let policy = plan?.policy, policy == .networkFirst || policy == .cacheAndNetwork else {
            return false
        }
        switch failure.kind {
        case .transport, .timeout, .tooManyAttempts, .invalidResponse: return true
        case .status: return (failure.response?.status ?? 0) >= 500
        default: return false
        }
    }
}
