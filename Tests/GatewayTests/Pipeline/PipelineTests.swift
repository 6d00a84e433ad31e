import Foundation
import Gateway
import GatewayTesting
import Testing

/// An auth stage that holds every request at a gate; `ignoresCancellation` keeps holding a
/// cancelled request until the gate opens, so only the pipeline's own check can stop it.
struct GatedAuth: AuthStage {
    let gate: Gate
    var ignoresCancellation = false

    func authorize(_ request: PreparedRequest, context: RequestContext) async throws -> PreparedRequest {
        if ignoresCancellation {
            // A task of its own does not inherit this task's cancellation.
            await Task { try? await gate.wait() }.value
        } else {
            try await gate.wait()
        }
        return request
    }
}

/// A queue that holds every request at a gate and counts its tickets.
final class GatedQueue: RequestQueue {
    let gate: Gate
    let finishedTickets = Locked<[RequestID]>([])
    init(gate: Gate) { self.gate = gate }

    func enqueue(_ context: RequestContext) async throws -> QueueTicket {
        try await gate.wait()
        return QueueTicket(id: context.id)
    }

    func finished(_ ticket: QueueTicket) async { finishedTickets.withLock { $0.append(ticket.id) } }
}

@Suite struct PipelineTests {
    @Test func observersSeeEveryEventInOrderAndFinishedOnce() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(200))
        let log = EventLog()
        _ = try await makeProvider(stub) { $0.observers = [log] }.send(Endpoint<Empty>.get("x"))
        #expect(log.all == ["enqueued", "dequeued", "encoded 1", "sent 1", "received 200", "finished success 200"])
    }

    @Test func theRequestSentCarriesTheCallsDeadlineAndACachedAnswerNone() async throws {
        let stub = StubTransport().on(.get, "x", reply: .json(#"{}"#, headers: ["Cache-Control": "max-age=60"]))
        let provider = makeProvider(stub) {
            $0.deadline = .seconds(5)
            $0.cache = ResponseCache(store: MemoryCacheStore())
        }
        let before = ContinuousClock.now
        _ = try await provider.send(Endpoint<Empty>.get("x"))
        let after = ContinuousClock.now
        let deadline = try #require(stub.requests.first?.request.deadline)
        #expect(deadline >= before + .seconds(5) && deadline <= after + .seconds(5))

        // Answered from the cache: the request it names was never sent, and carries no deadline.
        let cached = try await provider.send(Endpoint<Empty>.get("x"))
        #expect(cached.metrics.cacheOutcome == .hit)
        #expect(cached.request.deadline == nil)
        #expect(cached.request.url == stub.requests.first?.request.url)
        #expect(stub.requests.count == 1)
    }

    @Test func aFailureIsFinishedExactlyOnce() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(500))
        let log = EventLog()
        await #expect(throws: GatewayError.self) {
            try await makeProvider(stub) {
                $0.observers = [log]
                $0.retryPolicy = .none
            }.send(Endpoint<Empty>.get("x"))
        }
        #expect(log.all == ["enqueued", "dequeued", "encoded 1", "sent 1", "received 500", "finished failure status"])
    }

    @Test func aBuildFailureIsFinishedOnceWithoutOtherEvents() async throws {
        let log = EventLog()
        await #expect(throws: GatewayError.self) {
            try await makeProvider(StubTransport()) { $0.observers = [log] }.send(Endpoint<Empty>.get("../x"))
        }
        #expect(log.all == ["finished failure invalid request"])
    }

    /// An observer that keeps the name every event gives the request, and its error's endpoint.
    final class NameLog: Observer {
        let names = Locked<[String]>([])
        func requestEnqueued(_ context: RequestContext) { names.withLock { $0.append(context.name) } }
        func requestSent(_ request: HTTPRequest, context: RequestContext) { names.withLock { $0.append(context.name) } }
        func requestFinished(_ outcome: RequestOutcome, metrics: RequestMetrics, context: RequestContext) {
            var name = context.name
            if case .failure(let error) = outcome { name += " / \(error.endpoint ?? "no endpoint")" }
            names.withLock { $0.append(name) }
        }
    }

    @Test func everyEventNamesTheRequestAsItsEndpointDoes() async throws {
        let stub = StubTransport().on(.get, "users/42", reply: .status(200))
        let log = NameLog()
        let provider = makeProvider(stub) { $0.observers = [log] }
        _ = try await provider.send(Endpoint<Empty>.get("users/42"))
        _ = try await provider.send(Endpoint<Empty>.get("users/42").with { $0.label = "the user" })
        #expect(log.names.value == ["GET users/42", "GET users/42", "GET users/42", "the user", "the user", "the user"])
    }

    @Test(arguments: [
        // The path cannot be joined: the endpoint builds no request.
        (Endpoint<Empty>.get("../x"), "GET ../x"),
        // The request is built, and then refused for its header field.
        (Endpoint<Empty>.get("x").with { $0.headers["X-Note"] = "a\r\nb" }, "GET x"),
    ])
    func aRequestThatCannotBeBuiltIsNamedInItsErrorAndItsEvent(_ endpoint: Endpoint<Empty>, name: String) async throws {
        let log = NameLog()
        let error = await #expect(throws: GatewayError.self) {
            try await makeProvider(StubTransport()) { $0.observers = [log] }.send(endpoint)
        }
        #expect(error?.endpoint == name)
        #expect(log.names.value == ["\(name) / \(name)"])
    }

    @Test func aRequestCancelledInTheAuthStageNeverRunsItsEncoder() async throws {
        let gate = Gate()
        let stub = StubTransport().on(.post, "x", reply: .status(200))
        let encoder = CountingEncoder()
        let log = EventLog()
        let provider = makeProvider(stub) {
            $0.auth = GatedAuth(gate: gate)
            $0.observers = [log]
        }
        let task = Task { try await provider.send(Endpoint<Empty>.post("x", body: ["a": 1], encoder: encoder)) }
        await gate.waitForArrivals(1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(encoder.calls.value == 0)
        #expect(stub.requests.isEmpty)
        #expect(log.all == ["enqueued", "dequeued", "finished cancelled"])
    }

    @Test func theEncodeStageChecksCancellationItself() async throws {
        let gate = Gate()
        let stub = StubTransport().on(.post, "x", reply: .status(200))
        let encoder = CountingEncoder()
        let provider = makeProvider(stub) { $0.auth = GatedAuth(gate: gate, ignoresCancellation: true) }
        let task = Task { try await provider.send(Endpoint<Empty>.post("x", body: ["a": 1], encoder: encoder)) }
        await gate.waitForArrivals(1)
        task.cancel()
        gate.open()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(encoder.calls.value == 0)
        #expect(stub.requests.isEmpty)
    }

    @Test func aRequestCancelledInTheQueueNeverRunsItsEncoderNorHoldsATicket() async throws {
        let gate = Gate()
        let queue = GatedQueue(gate: gate)
        let stub = StubTransport().on(.post, "x", reply: .status(200))
        let encoder = CountingEncoder()
        let provider = makeProvider(stub) { $0.queue = queue }
        let task = Task { try await provider.send(Endpoint<Empty>.post("x", body: ["a": 1], encoder: encoder)) }
        await gate.waitForArrivals(1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(encoder.calls.value == 0)
        #expect(queue.finishedTickets.value.isEmpty)
    }

    @Test func aRequestCancelledBeforeItStartsNeverRunsItsEncoder() async throws {
        let start = Gate()
        let stub = StubTransport().on(.post, "x", reply: .status(200))
        let encoder = CountingEncoder()
        let provider = makeProvider(stub)
        let task = Task {
            try? await start.wait()
            return try await provider.send(Endpoint<Empty>.post("x", body: ["a": 1], encoder: encoder))
        }
        task.cancel()
        start.open()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(encoder.calls.value == 0)
    }

    @Test func aRequestCancelledInTheTransportEndsAsCancelledOnce() async throws {
        let gate = Gate()
        let stub = StubTransport().on(.get, "slow", reply: .status(200).held(by: gate))
        let log = EventLog()
        let queue = GatedQueue(gate: Gate())
        queue.gate.open()
        let provider = makeProvider(stub) {
            $0.observers = [log]
            $0.queue = queue
        }
        let task = Task { try await provider.send(Endpoint<Empty>.get("slow")) }
        await gate.waitForArrivals(1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(log.all.filter { $0.hasPrefix("finished") } == ["finished cancelled"])
        #expect(queue.finishedTickets.value.count == 1)
    }

    @Test func theQueueTicketIsReleasedOnceForEveryOutcome() async throws {
        let gate = Gate()
        gate.open()
        let queue = GatedQueue(gate: gate)
        let stub = StubTransport().on(.get, "ok", reply: .status(200)).on(.get, "bad", reply: .status(500))
        let provider = makeProvider(stub) {
            $0.queue = queue
            $0.retryPolicy = .none
        }
        _ = try await provider.send(Endpoint<Empty>.get("ok"))
        _ = try? await provider.send(Endpoint<Empty>.get("bad"))
        _ = try? await provider.send(Endpoint<User>.get("ok"))
        #expect(queue.finishedTickets.value.count == 3)
        #expect(Set(queue.finishedTickets.value).count == 3)
    }

    @Test func theBearerTokenGoesOnlyToTheBaseOriginAndOnlyWhenRequired() async throws {
        let stub = StubTransport(unmatched: .notFound).on(StubMatcher(), reply: [.status(200)])
        let provider = makeProvider(stub) { $0.auth = .bearer("t0ken") }
        _ = try await provider.send(Endpoint<Empty>.get("me"))
        _ = try await provider.send(Endpoint<Empty>.get("public").with { $0.requiresAuthentication = false })
        _ = try await provider.send(Endpoint<Empty>.get("https://cdn.example.com/x").with {
            $0.pathOptions = .allowAbsoluteURL
        })
        #expect(stub.requests.map { $0.headers["Authorization"] } == ["Bearer t0ken", nil, nil])
    }

    @Test func theCacheStoresOnlySuccessfulResponsesThatDecoded() async throws {
        let store = RecordingCacheStore()
        let cacheable: HTTPHeaders = ["Cache-Control": "max-age=60"]
        let stub = StubTransport()
            .on(.get, "ok", reply: .json(#"{"id": 1, "name": "a"}"#, headers: cacheable))
            .on(.get, "bad", reply: .json(#"{"id": 1, "name": "a"}"#, status: 404, headers: cacheable))
            .on(.get, "odd", reply: .json(#"{"name": 1}"#, headers: cacheable))
        let provider = makeProvider(stub) { $0.cache = ResponseCache(store: store) }
        _ = try await provider.send(Endpoint<User>.get("ok"))
        _ = try? await provider.send(Endpoint<User>.get("bad"))
        _ = try? await provider.send(Endpoint<User>.get("odd"))
        #expect(store.stored.value.count == 1)
        #expect(store.stored.value.first?.hasSuffix("/v1/ok") == true)
    }

    @Test func requestIDsGrowWithEachRequest() async throws {
        let ids = Locked<[RequestID]>([])
        struct IDs: Observer {
            let ids: Locked<[RequestID]>
            func requestEnqueued(_ context: RequestContext) { ids.withLock { $0.append(context.id) } }
        }
        let stub = StubTransport().on(.get, "x", reply: .status(200))
        let provider = makeProvider(stub) { $0.observers = [IDs(ids: ids)] }
        for _ in 0..<3 { _ = try await provider.send(Endpoint<Empty>.get("x")) }
        #expect(ids.value.map(\.rawValue) == [1, 2, 3])
    }

    @Test func anEncoderFailureIsAnEncodingErrorWithContext() async throws {
        let stub = StubTransport()
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).send(Endpoint<Empty>.get("x", parameters: [1, 2]))
        }
        #expect(error.kind == .encoding)
        #expect(error.endpoint == "GET x")
        #expect(stub.requests.isEmpty)
    }
}
