import Foundation

/// The network part of a cached request (steps 2–9), as one call that identical requests in
/// flight may share: the request that starts it decodes the answer (step 8), and only an answer
/// that decoded is stored (step 9).
final class NetworkCall: Sendable {
    let leg: NetworkLeg
    let plan: CachePlan
    /// The entry a `304` revalidates.
    let revalidated: CacheEntry?
    /// `revalidated` decoded by the starting request (what a `304` answers with).
    let revalidatedValue: (any Sendable)?
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
        revalidatedValue = conditional ? lookup.revalidatedValue : nil
        generation = cache.generation
        context = run.context
        self.clockStart = clockStart
        interruption = cache.deduplicatesRequests ? Interruption() : run.interruption
        self.cache = cache
        self.pipeline = pipeline
    }

    /// Steps 2–7 through the pipeline, step 8 for the starting request, then step 9 through the
    /// cache for an answer that decoded.
    @Sendable
    func perform() async throws -> SharedCall.Result {
        let shared = Pipeline.Run(context: context, interruption: interruption)
        do {
            try await pipeline.admit(leg, clockStart: clockStart, shared)
            let (settlement, failure) = try decoded(shared)
            if failure == nil, let entry = settlement.entry { await write(entry, shared) }
            return SharedCall.Result(response: settlement.answer, request: try shared.accepted().request,
                                     metrics: shared.metrics, outcome: settlement.outcome, value: shared.value,
                                     decodingFailure: failure)
        } catch let failure as GatewayError {
            throw shared.filled(failure)
        }
    }

    /// Step 8 for the starting request: the answer (the stored body after a `304`) decoded into
    /// `shared.value`; a decoding failure is returned, for the starting request alone.
    @inline(never)
    private func decoded(_ shared: Pipeline.Run) throws -> (CacheSettlement, GatewayError?) {
        let settlement = cache.settlement(try shared.accepted().response, plan: plan, entry: revalidated)
        shared.response = settlement.answer
        shared.value = nil
        if settlement.outcome == .revalidated, let revalidatedValue {
            shared.value = revalidatedValue
            return (settlement, nil)
        }
        do {
            try pipeline.decode(leg.base, shared)
            return (settlement, nil)
        } catch let failure as GatewayError {
            return (settlement, shared.filled(failure))
        }
    }

    /// Step 9: the cache stores the entry or refreshes it, timed.
    @inline(never)
    private func write(_ entry: CacheEntry, _ shared: Pipeline.Run) async {
        let writingAt = ContinuousClock.now
        await cache.write(entry, generation: generation)
        shared.metrics.cacheWrite = ContinuousClock.now - writingAt
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
