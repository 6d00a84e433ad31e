import Foundation
import Gateway
import GatewayTesting
import Testing

/// When encoding happens, and what observers see, through the real `URLSessionTransport` and a
/// loopback server: a request cancelled before the encode stage never runs its encoder nor reaches
/// the server; a retried request is encoded again and arrives twice, byte for byte the same.
@Suite struct LifecycleEndToEndTests {
    /// `ignoresCancellation`: the auth stage keeps holding the cancelled request until the gate
    /// opens, so only the encode stage's own check can stop it.
    @Test(arguments: [false, true])
    func aRequestCancelledWhileHeldInTheAuthStageNeverEncodesNorReachesTheServer(
        ignoresCancellation: Bool
    ) async throws {
        let server = try LoopbackServer { _ in .status(204) }
        defer { server.shutdown() }
        let gate = Gate()
        let encoder = CountingEncoder()
        let log = EventLog()
        let provider = try EndToEnd.provider(server) {
            $0.auth = GatedAuth(gate: gate, ignoresCancellation: ignoresCancellation)
            $0.observers = [log]
        }

        let held = Task { try await provider.send(Endpoint<Empty>.post("held", body: ["a": 1], encoder: encoder)) }
        await gate.waitForArrivals(1)
        held.cancel()
        if ignoresCancellation { gate.open() }
        await #expect(throws: CancellationError.self) { try await held.value }

        #expect(encoder.calls.value == 0)
        #expect(server.requests.isEmpty)
        #expect(log.all == ["enqueued", "dequeued", "finished cancelled"])

        // The same provider, server and encoder work for a request that is not cancelled.
        gate.open()
        _ = try await provider.send(Endpoint<Empty>.post("control", body: ["a": 1], encoder: encoder))
        #expect(encoder.calls.value == 1)
        #expect(server.requests.map(\.path) == ["/api/control"])
    }

    @Test func aRequestCancelledWhileHeldInTheQueueNeverEncodesNorReachesTheServer() async throws {
        let server = try LoopbackServer { _ in .status(204) }
        defer { server.shutdown() }
        let gate = Gate()
        let queue = GatedQueue(gate: gate)
        let encoder = CountingEncoder()
        let provider = try EndToEnd.provider(server) { $0.queue = queue }

        let held = Task { try await provider.send(Endpoint<Empty>.post("held", body: ["a": 1], encoder: encoder)) }
        await gate.waitForArrivals(1)
        held.cancel()
        await #expect(throws: CancellationError.self) { try await held.value }

        #expect(encoder.calls.value == 0)
        #expect(server.requests.isEmpty)
        #expect(queue.finishedTickets.value.isEmpty)
        gate.open()
        _ = try await provider.send(Endpoint<Empty>.post("control", body: ["a": 1], encoder: encoder))
        #expect(server.requests.map(\.path) == ["/api/control"])
    }

    /// A server that never answers, and a gate that opens when a request has arrived.
    private static func stallingServer() throws -> (LoopbackServer, LoopbackGate) {
        let arrived = LoopbackGate()
        let server = try LoopbackServer { _ in
            arrived.open()
            return LoopbackResponse(fault: .stall)
        }
        return (server, arrived)
    }

    @Test func aRequestCancelledInFlightEndsAsCancelledOnce() async throws {
        let (server, arrived) = try Self.stallingServer()
        defer { server.shutdown() }
        let log = EventLog()
        let provider = try EndToEnd.provider(server) { $0.observers = [log] }

        let call = Task { try await provider.send(Endpoint<Data>.get("stream")) }
        await arrived.wait()
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }

        #expect(log.all == ["enqueued", "dequeued", "encoded 1", "sent 1", "finished cancelled"])
    }

    /// What a caller saw: the error's type (or "success") and whether its own task was cancelled.
    private static func outcome(_ send: () async throws -> Void) async -> (String, callerCancelled: Bool) {
        do {
            try await send()
            return ("success", Task.isCancelled)
        } catch {
            return (String(describing: type(of: error)), Task.isCancelled)
        }
    }

    @Test func invalidatingEndsARequestInFlightWithoutCancellingItsCaller() async throws {
        let (server, arrived) = try Self.stallingServer()
        defer { server.shutdown() }
        let log = EventLog()
        let provider = try EndToEnd.provider(server) { $0.observers = [log] }

        let call = Task { await Self.outcome { _ = try await provider.send(Endpoint<Data>.get("stream")) } }
        await arrived.wait()
        provider.invalidate()
        let (error, callerCancelled) = await call.value

        #expect(error == "CancellationError")
        #expect(!callerCancelled)
        #expect(log.all == ["enqueued", "dequeued", "encoded 1", "sent 1", "finished cancelled"])
    }

    @Test func invalidatingEndsARequestWaitingInTheQueueWithoutCancellingItsCaller() async throws {
        let (server, arrived) = try Self.stallingServer()
        defer { server.shutdown() }
        let queue = PriorityRequestQueue(maxConcurrentRequests: 1)
        let encoder = CountingEncoder()
        let provider = try EndToEnd.provider(server) { $0.queue = queue }

        let first = Task { await Self.outcome { _ = try await provider.send(Endpoint<Data>.get("stream")) } }
        await arrived.wait()
        let waiting = Task {
            await Self.outcome {
                _ = try await provider.send(Endpoint<Empty>.post("waiting", body: ["a": 1], encoder: encoder))
            }
        }
        await queue.waitUntil { $0.totalWaiting == 1 }
        provider.invalidate()

        let (firstError, firstCallerCancelled) = await first.value
        let (waitingError, waitingCallerCancelled) = await waiting.value
        #expect(firstError == "CancellationError" && !firstCallerCancelled)
        #expect(waitingError == "CancellationError" && !waitingCallerCancelled)
        #expect(encoder.calls.value == 0)
        #expect(server.requests.map(\.path) == ["/api/stream"])
        await queue.waitUntil { $0.running == 0 && $0.totalWaiting == 0 }
    }

    /// Answers 503 to the first request and `then` to every later one.
    private static func unavailableOnce(then answer: LoopbackResponse) throws -> LoopbackServer {
        let count = Locked(0)
        return try LoopbackServer { _ in
            let number = count.withLock { value -> Int in
                value += 1
                return value
            }
            return number == 1 ? .text("busy", status: 503) : answer
        }
    }

    private static let retryOn503 = TestInterceptor(onResponse: { response, context in
        response.status == 503 && context.attempt < 3 ? .retry(after: nil) : .continue
    })

    @Test func aRetriedRequestIsEncodedAgainAndTheServerSeesTwoIdenticalBodies() async throws {
        let server = try Self.unavailableOnce(then: .json(#"{"id": 1, "name": "Ada"}"#, status: 201))
        defer { server.shutdown() }
        let encoder = CountingEncoder()
        let log = EventLog()
        let provider = try EndToEnd.provider(server) {
            $0.interceptors = [Self.retryOn503]
            $0.observers = [log]
        }

        let response = try await provider.send(
            Endpoint<User>.post("users", body: ["name": "Ada", "role": "admin"], encoder: encoder))

        #expect(response.value == User(id: 1, name: "Ada"))
        #expect(response.metrics.attempts == 2)
        #expect(encoder.calls.value == 2)
        let bodies = server.requests.map(\.body)
        #expect(bodies.count == 2)
        #expect(bodies.first == Data(#"{"name":"Ada","role":"admin"}"#.utf8))
        #expect(bodies.first == bodies.last)
        #expect(server.requests.map { $0.headers["Content-Type"] } == ["application/json", "application/json"])
        #expect(log.all == ["enqueued", "dequeued", "encoded 1", "sent 1", "received 503", "retried",
                            "encoded 2", "sent 2", "received 201", "finished success 201"])
    }

    @Test func aRetriedStreamedMultipartBodyIsWrittenAgainAndEveryTemporaryFileRemoved() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("take.wav")
        let bytes = TransportConformance.bytes(64 * 1024, seed: 11)
        try bytes.write(to: file)
        let spool = folder.url.appendingPathComponent("spool")
        try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: true)
        let server = try Self.unavailableOnce(then: .status(204))
        defer { server.shutdown() }
        let provider = try EndToEnd.provider(server) { $0.interceptors = [Self.retryOn503] }
        let encoder = MultipartParameterEncoder.multipart(
            boundary: .fixed("e2e-boundary"), streamingThreshold: 1024, temporaryDirectory: spool)

        let response = try await provider.send(
            Endpoint<Empty>.post("takes", body: MultipartForm([.file("take", url: file)]), encoder: encoder))

        #expect(response.metrics.attempts == 2)
        let bodies = server.requests.map(\.body)
        #expect(bodies.count == 2)
        #expect(bodies.first == bodies.last)
        let parts = try MultipartReader.parts(try #require(bodies.last), boundary: "e2e-boundary")
        #expect(parts.map(\.content) == [bytes])
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool.path).isEmpty)
    }

    @Test func observersSeeEachLifecycleEventOnceForASuccessAndAStatusFailure() async throws {
        let server = try LoopbackServer { request in
            request.path == "/api/ok" ? .json(#"{"id": 2, "name": "Grace"}"#) : .text("gone", status: 410)
        }
        defer { server.shutdown() }
        let log = EventLog()
        let provider = try EndToEnd.provider(server) { $0.observers = [log] }

        _ = try await provider.send(Endpoint<User>.get("ok"))
        #expect(log.all == ["enqueued", "dequeued", "encoded 1", "sent 1", "received 200", "finished success 200"])

        log.events.withLock { $0.removeAll() }
        await #expect(throws: GatewayError.self) { try await provider.send(Endpoint<User>.get("gone")) }
        #expect(log.all == ["enqueued", "dequeued", "encoded 1", "sent 1", "received 410", "finished failure status"])
    }
}
