import Foundation

/// What kind of request the pipeline sends.
enum RequestKind: Sendable {
    /// A request of the app's.
    case ordinary
    /// A credential refresh request, sent through the `RefreshClient` of the refresh it works
    /// for: queued as a `blocker`, it skips the cache and the auth stage.
    case credentialRefresh(RefreshScope)
}

/// What one request carries from step to step: its context (identity, attempt, deadline), its
/// metrics so far, and what step 1 fixed for the whole call.
struct Call: Sendable {
    var context: RequestContext
    var metrics = RequestMetrics()
    /// Times the whole call, from its start to step 11 (`RequestMetrics.total`).
    let stopwatch = Stopwatch.start()
    /// The refresh this request works for, when it is a credential refresh request.
    let refresh: RefreshScope?
    /// The whole call's time budget (the request's or the configuration's deadline), for messages.
    private(set) var budget: Duration?
    /// Whether the retry policy may send the request again.
    private(set) var retryability = Retryability.automatic
    /// Whether an attempt waits for the network to come back.
    private(set) var waitsForConnectivity = false

    /// A call whose context has no name yet: step 1 names it (`named(_:)`).
    init(id: RequestID, baseURL: URL, kind: RequestKind) {
        context = RequestContext(id: id, name: "", baseURL: baseURL)
        switch kind {
        case .ordinary: refresh = nil
        case .credentialRefresh(let scope):
            refresh = scope
            context.isCredentialRefresh = true
        }
    }

    /// Step 1: the name the request goes by, the built request's (the requestable's own when
    /// it could not be built).
    mutating func named(_ name: String) {
        context.name = name
    }

    /// Step 1's end: what the built request fixes for the whole call; `now` starts the deadline.
    mutating func fix(_ prepared: PreparedRequest, configuration: Provider.Configuration,
                      now: ContinuousClock.Instant) {
        context.priority = prepared.priority
        context.requiresAuthentication = prepared.requiresAuthentication
        budget = prepared.deadline ?? configuration.deadline
        context.deadline = budget.map { now + $0 }
        retryability = prepared.retryability
        waitsForConnectivity = prepared.waitsForConnectivity ?? configuration.waitsForConnectivity
    }

    /// After steps 3–8: the exchange's attempts and metrics, keeping this request's cache look-up.
    mutating func took(_ exchange: Exchange) {
        let lookup = metrics.cacheLookup
        metrics = exchange.metrics
        metrics.cacheLookup = lookup
        metrics.cacheOutcome = exchange.outcome
        context.attempt = exchange.attempt
    }

    /// `the call's deadline of 30 s`: how messages name the whole-call limit.
    var deadlineName: String {
        budget.map { "the call's deadline of \(GatewayError.readableSeconds($0))" } ?? "the call's deadline"
    }

    /// How to give a call more time.
    static let deadlineFix =
        "raise the endpoint's `deadline` or Configuration.deadline (30 s by default), or check that the server answers"
}

/// What steps 3–8 produced: the request sent last, the response to decode, and the metrics of
/// the exchange. Identical requests in flight may share one.
struct Exchange: Sendable {
    /// The request of the accepted attempt.
    let request: HTTPRequest
    /// The response to decode: the network's, or after a `304` the stored one it confirmed.
    var answer: HTTPResponse
    /// The metrics of the request that ran the exchange, up to step 8.
    let metrics: RequestMetrics
    /// The number of the accepted attempt.
    let attempt: Int
    /// Whether the answer came through a persisted-query hash (and whether the text went too).
    let persistedQuery: PersistedQueryOutcome
    /// What the cache makes of the answer (`.notConsulted` without a look-up).
    var outcome = CacheOutcome.notConsulted
    /// The entry step 10 writes once step 9 decoded the answer.
    var entry: CacheEntry?
    /// Whether this request joined an exchange another one ran, on this instance or another
    /// (it then stores nothing).
    var joined = false
    /// The lease this instance holds on the key's network call among instances sharing the
    /// store (`CacheFlightCoordinator`): step 10 ends it once the entry is written.
    var flight: (any CacheFlightLease)?
}
