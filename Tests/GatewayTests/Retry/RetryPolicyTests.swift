import Foundation
@testable import Gateway
import GatewayTestSupport
import GatewayTesting
import Testing

/// A provider over `stub` whose retries wait on `clock`, with a fixed jitter draw.
private func retryingProvider(
    _ stub: StubTransport, clock: ManualClock, draw: Double = 0.5,
    configure: (inout Provider.Configuration) -> Void = { _ in }
) -> Provider {
    makeProvider(stub) {
        $0.clock = clock
        $0.retryPolicy = RetryPolicy(random: { draw })
        configure(&$0)
    }
}

@Suite(.quietScheduler) struct RetryPolicyTests {
    @Test(arguments: [0.25, 0.5, 0.999])
    func threeAttemptsFor503503200WithDelaysInsideTheJitterBounds(draw: Double) async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(503), .status(503), .status(200))
        let clock = ManualClock(advancesOnSleep: true)
        let started = ContinuousClock.now
        let response = try await retryingProvider(stub, clock: clock, draw: draw).send(Endpoint<Empty>.get("x"))
        let realTime = ContinuousClock.now - started
        #expect(stub.requests.count == 3)
        #expect(response.metrics.attempts == 3)
        #expect(response.metrics.retries == 2)
        #expect(response.metrics.authReplays == 0)
        #expect(response.metrics.transportAttempts.map(\.status) == [503, 503, 200])
        #expect(clock.sleeps.count == 2)
        let bounds = [0.5, 1.0]
        for (sleep, bound) in zip(clock.sleeps, bounds) {
            #expect(sleep >= .zero && sleep <= .seconds(bound))
            #expect(abs(sleep.seconds - bound * draw) < 1e-6)
        }
        // The manual clock's time also moves with real time, which the back-off waits add to; a
        // loaded machine may let seconds of it pass, so the bound adds what passed.
        let slept = clock.sleeps.reduce(.zero, +)
        #expect(response.metrics.retryDelay >= slept && response.metrics.retryDelay <= slept + realTime)
    }

    @Test func fullJitterStaysWithinTheDoublingBoundCappedAtThirtySeconds() {
        let policy = RetryPolicy()
        #expect((1...8).map { policy.backoffBound(forRetry: $0).seconds } == [0.5, 1, 2, 4, 8, 16, 30, 30])
        for retry in 1...8 {
            let bound = policy.backoffBound(forRetry: retry)
            for _ in 0..<200 {
                let delay = policy.backoff(forRetry: retry)
                #expect(delay >= .zero && delay <= bound)
            }
        }
        #expect(RetryPolicy(jitter: .none).backoff(forRetry: 3) == .seconds(2))
        #expect(RetryPolicy(random: { .nan }).backoff(forRetry: 1) == .zero)
    }

    @Test(arguments: [HTTPMethod.post, .patch])
    func aNonIdempotentRequestIsSentOnce(method: HTTPMethod) async throws {
        let stub = StubTransport().on(method, "orders", reply: .status(503), .status(200))
        let clock = ManualClock(advancesOnSleep: true)
        let endpoint = Endpoint<Empty>.request(method, "orders", body: ["item": "tea"])
        let error = try await #require(throws: GatewayError.self) {
            try await retryingProvider(stub, clock: clock).send(endpoint)
        }
        #expect(error.status == 503)
        #expect(stub.requests.count == 1)
        #expect(clock.sleeps.isEmpty)
    }

    @Test(arguments: [HTTPMethod.get, .head, .put, .delete, .options, .trace])
    func anIdempotentRequestIsRetried(method: HTTPMethod) async throws {
        let stub = StubTransport().on(method, "x", reply: .status(502), .status(200))
        let response = try await retryingProvider(stub, clock: ManualClock(advancesOnSleep: true))
            .send(Endpoint<Empty>.request(method, "x"))
        #expect(response.metrics.attempts == 2)
    }

    @Test func aPostWithAnIdempotencyKeyIsRetriedWithTheSameKey() async throws {
        let stub = StubTransport().on(.post, "orders", reply: .status(503), .status(500), .status(201))
        let endpoint = Endpoint<Empty>.post("orders", body: ["item": "tea"]).idempotencyKey("order-7f3a")
        let response = try await retryingProvider(stub, clock: ManualClock(advancesOnSleep: true)).send(endpoint)
        #expect(response.status == 201)
        #expect(stub.requests.map { $0.headers["Idempotency-Key"] } == ["order-7f3a", "order-7f3a", "order-7f3a"])
        #expect(stub.requests.map(\.bodyText) == Array(repeating: #"{"item":"tea"}"#, count: 3))
    }

    @Test func aRequestDeclaredNeverRetryableIsSentOnce() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(503), .status(200))
        _ = try? await retryingProvider(stub, clock: ManualClock(advancesOnSleep: true))
            .send(Endpoint<Empty>.get("x").with { $0.retryability = .never })
        #expect(stub.requests.count == 1)
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func aRetryableStatusIsRetried(status: Int) async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(status), .status(200))
        let response = try await retryingProvider(stub, clock: ManualClock(advancesOnSleep: true))
            .send(Endpoint<Empty>.get("x"))
        #expect(response.metrics.attempts == 2)
    }

    @Test(arguments: [400, 401, 403, 404, 409, 422, 501, 505])
    func anotherStatusIsNotRetried(status: Int) async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(status), .status(200))
        let error = try await #require(throws: GatewayError.self) {
            try await retryingProvider(stub, clock: ManualClock(advancesOnSleep: true)).send(Endpoint<Empty>.get("x"))
        }
        #expect(error.status == status)
        #expect(stub.requests.count == 1)
    }

    @Test(arguments: [URLError.Code.timedOut, .networkConnectionLost, .cannotConnectToHost, .cannotFindHost,
                      .dnsLookupFailed, .notConnectedToInternet])
    func aTransientTransportFailureIsRetried(code: URLError.Code) async throws {
        let request = HTTPRequest(method: .get, url: testBaseURL.appendingPathComponent("x"))
        let failure = URLSessionTransport.map(URLError(code), request: request, idleTimeout: .seconds(60))
        let stub = StubTransport().on(.get, "x", reply: .failure(failure), .status(200))
        let response = try await retryingProvider(stub, clock: ManualClock(advancesOnSleep: true))
            .send(Endpoint<Empty>.get("x"))
        #expect(response.metrics.attempts == 2)
        #expect(response.metrics.transportAttempts.first?.status == nil)
        #expect(response.metrics.transportAttempts.first?.failure != nil)
    }

    @Test(arguments: [URLError.Code.secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
                      .badURL, .unsupportedURL, .httpTooManyRedirects, .cancelled])
    func aPermanentTransportFailureIsNotRetried(code: URLError.Code) async throws {
        let request = HTTPRequest(method: .get, url: testBaseURL.appendingPathComponent("x"))
        let failure = URLSessionTransport.map(URLError(code), request: request, idleTimeout: .seconds(60))
        let stub = StubTransport().on(.get, "x", reply: .failure(failure), .status(200))
        await #expect(throws: GatewayError.self) {
            try await retryingProvider(stub, clock: ManualClock(advancesOnSleep: true)).send(Endpoint<Empty>.get("x"))
        }
        #expect(stub.requests.count == 1)
    }

    @Test func refusedRedirectsOversizedResponsesAndDecodeErrorsAreNotRetried() async throws {
        let stub = StubTransport()
            .on(.get, "redirect", reply: .failure(GatewayError(.redirectRefused, "https to http")))
            .on(.get, "large", reply: .failure(GatewayError(.responseTooLarge, "too large")))
            .on(.get, "user", reply: .json(#"{"id": "not a number"}"#))
        let provider = retryingProvider(stub, clock: ManualClock(advancesOnSleep: true))
        for path in ["redirect", "large"] {
            await #expect(throws: GatewayError.self) { try await provider.send(Endpoint<Empty>.get(path)) }
        }
        let error = try await #require(throws: GatewayError.self) { try await provider.send(Endpoint<User>.get("user")) }
        #expect(error.kind == .decoding)
        #expect(stub.requests.count == 3)
    }

    @Test func noRequestMakesMoreThanFiveAttemptsWhateverIsConfigured() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(503))
        let clock = ManualClock(advancesOnSleep: true)
        let provider = makeProvider(stub) {
            $0.clock = clock
            $0.retryPolicy = RetryPolicy(maxRetries: 10)
            $0.maxAttempts = 12
        }
        let error = try await #require(throws: GatewayError.self) { try await provider.send(Endpoint<Empty>.get("x")) }
        #expect(stub.requests.count == 5)
        #expect(error.status == 503)
        #expect(error.message.contains("after 5 attempts"))
    }

    @Test func cancellingDuringBackOffEndsWithin50msWithNoFurtherAttempt() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(503))
        let clock = ManualClock()
        let counter = FinishCounter()
        let ended = EndTime()
        let provider = retryingProvider(stub, clock: clock) { $0.observers = [counter, ended] }
        let task = Task { try await provider.send(Endpoint<Empty>.get("x")) }
        await clock.waitForSleeps(1)
        await QuietScheduler.wait(limit: .seconds(30))
        let cancelledAt = ContinuousClock.now
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // The clock never moved: the request ended without waiting out its back-off. The bound
        // is the issue's 50 ms, measured to the pipeline's `finished` event.
        #expect(clock.advanced == .zero)
        let elapsed = try #require(ended.at) - cancelledAt
        #expect(elapsed < .milliseconds(50), "took \(elapsed)")
        clock.advance(by: .seconds(60))
        #expect(stub.requests.count == 1)
        #expect(clock.sleeperCount == 0)
        #expect(counter.outcomes.value == ["cancelled": 1])
    }

    @Test func authReplaysAreCountedApartFromRetries() async throws {
        let stub = StubTransport().on(.get, "me", reply: .status(401), .status(503), .status(200))
        let authorizations = Locked(0)
        let provider = retryingProvider(stub, clock: ManualClock(advancesOnSleep: true)) {
            $0.auth = CountingAuth(count: authorizations)
            $0.interceptors = [TestInterceptor(onResponse: { response, _ in response.status == 401 ? .replay : .continue })]
        }
        let response = try await provider.send(Endpoint<Empty>.get("me"))
        #expect(response.metrics.attempts == 3)
        #expect(response.metrics.authReplays == 1)
        #expect(response.metrics.retries == 1)
        #expect(authorizations.value == 2)
    }

    @Test func authReplaysStopAtTheirLimit() async throws {
        let stub = StubTransport().on(.get, "me", reply: .status(401))
        let provider = makeProvider(stub) {
            $0.interceptors = [TestInterceptor(onResponse: { response, _ in response.status == 401 ? .replay : .continue })]
        }
        let error = try await #require(throws: GatewayError.self) { try await provider.send(Endpoint<Empty>.get("me")) }
        #expect(error.kind == .authentication)
        #expect(stub.requests.count == 3)
    }
}

/// Counts how often the auth stage runs.
struct CountingAuth: AuthStage {
    let count: Locked<Int>
    func authorize(_ request: PreparedRequest, context: RequestContext) async throws -> PreparedRequest {
        count.withLock { $0 += 1 }
        return request
    }
}

/// Notes when a request finished.
final class EndTime: Observer {
    private let instant = Locked<ContinuousClock.Instant?>(nil)
    var at: ContinuousClock.Instant? { instant.value }
    func requestFinished(_ outcome: RequestOutcome, metrics: RequestMetrics, context: RequestContext) {
        instant.withLock { $0 = .now }
    }
}
