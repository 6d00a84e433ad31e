import Foundation
@testable import Gateway
import GatewayTesting
import Testing

/// The queue inside the pipeline: cancellation, blockers against the cap, invalidation.
@Suite struct ProviderQueueTests {
    @Test func aRequestCancelledWhileQueuedNeverReachesTheServerNorItsEncoder() async throws {
        let gate = Gate()
        let stub = StubTransport()
            .on(.get, "slow", reply: .status(200).held(by: gate))
            .on(.post, "x", reply: .status(200))
        let queue = PriorityRequestQueue(maxConcurrentRequests: 1)
        let encoder = CountingEncoder()
        let counter = FinishCounter()
        let provider = makeProvider(stub) {
            $0.queue = queue
            $0.observers = [counter]
        }
        let slow = Task { try await provider.send(Endpoint<Empty>.get("slow")) }
        await gate.waitForArrivals(1)
        let queued = Task { try await provider.send(Endpoint<Empty>.post("x", body: ["a": 1], encoder: encoder)) }
        await queue.waitUntil { $0.totalWaiting == 1 }
        queued.cancel()
        await #expect(throws: CancellationError.self) { try await queued.value }
        gate.open()
        _ = try await slow.value
        #expect(stub.requests.map(\.url.lastPathComponent) == ["slow"])
        #expect(encoder.calls.value == 0)
        #expect(counter.outcomes.value == ["success": 1, "cancelled": 1])
        #expect(queue.status.running == 0)
    }

    @Test func cancellingARequestInFlightFreesItsSlotBeforeTheTransportReturns() async throws {
        let gate = Gate()
        let transport = StubbornTransport(gate: gate)
        let queue = PriorityRequestQueue(maxConcurrentRequests: 1)
        let provider = Provider(baseURL: testBaseURL, transport: transport) { $0.queue = queue }
        let held = Task { try await provider.send(Endpoint<Empty>.get("held")) }
        await gate.waitForArrivals(1)
        let next = Task { try await provider.send(Endpoint<Empty>.get("next")) }
        await queue.waitUntil { $0.totalWaiting == 1 }
        held.cancel()
        // The held transport call has not returned, yet the next request gets its slot.
        _ = try await next.value
        #expect(transport.received.value == ["held", "next"])
        gate.open()
        await #expect(throws: CancellationError.self) { try await held.value }
        #expect(queue.status.running == 0)
    }

    @Test func aBlockerRunsWhileEverySlotIsTakenByRequestsWaitingForIt() async throws {
        let gate = Gate()
        let stub = StubTransport().on(.get, "data", reply: .status(200)).on(.post, "refresh", reply: .status(200))
        let queue = PriorityRequestQueue(maxConcurrentRequests: 4)
        let provider = makeProvider(stub) {
            $0.queue = queue
            $0.auth = CredentialGate(gate: gate)
        }
        let waiting = (0..<4).map { _ in Task { try await provider.send(Endpoint<Empty>.get("data")) } }
        await gate.waitForArrivals(4)
        #expect(queue.status.running == 4)
        let refresh = Endpoint<Empty>.post("refresh").with {
            $0.priority = .blocker
            $0.requiresAuthentication = false
        }
        // Admitted although four requests hold every slot; they proceed once it has run.
        let refreshed = Task {
            let response = try await provider.send(refresh.with { $0.label = "refresh" })
            gate.open()
            return response
        }
        _ = try await refreshed.value
        for task in waiting { _ = try await task.value }
        #expect(stub.requests.count == 5)
    }

    @Test func invalidatingTheProviderEndsEveryRequestOnceWithACancellation() async throws {
        let gate = Gate()
        let stub = StubTransport().on(.get, "slow", reply: .status(200).held(by: gate))
        let queue = PriorityRequestQueue(maxConcurrentRequests: 4)
        let counter = FinishCounter()
        let provider = makeProvider(stub) {
            $0.queue = queue
            $0.observers = [counter]
        }
        let tasks = (0..<10).map { _ in Task { try await provider.send(Endpoint<Empty>.get("slow")) } }
        await gate.waitForArrivals(4)
        await queue.waitUntil { $0.totalWaiting == 6 }
        provider.invalidate()
        for task in tasks {
            await #expect(throws: CancellationError.self) { try await task.value }
        }
        #expect(counter.finished.value.count == 10)
        #expect(counter.finished.value.values.allSatisfy { $0 == 1 })
        #expect(counter.outcomes.value == ["cancelled": 10])
        #expect(stub.requests.count == 4)
        let late = try await #require(throws: GatewayError.self) { try await provider.send(Endpoint<Empty>.get("slow")) }
        #expect(late.kind == .cancelled)
        await queue.waitUntil { $0.running == 0 && $0.totalWaiting == 0 }
    }

    @Test func releasingTheProviderEndsItsTasksOnceEachWithACancellation() async throws {
        let gate = Gate()
        let stub = StubTransport().on(.get, "slow", reply: .status(200).held(by: gate))
        let queue = PriorityRequestQueue(maxConcurrentRequests: 4)
        let counter = FinishCounter()
        var provider: Provider? = makeProvider(stub) {
            $0.queue = queue
            $0.observers = [counter]
        }
        weak let released = provider
        let tasks = (0..<10).compactMap { _ in provider?.task(Endpoint<Empty>.get("slow")) }
        await gate.waitForArrivals(4)
        await queue.waitUntil { $0.totalWaiting == 6 }
        provider = nil
        #expect(released == nil)
        for task in tasks {
            await #expect(throws: CancellationError.self) { try await task.value }
        }
        #expect(counter.finished.value.count == 10)
        #expect(counter.finished.value.values.allSatisfy { $0 == 1 })
        #expect(counter.outcomes.value == ["cancelled": 10])
        #expect(stub.requests.count == 4)
        gate.open()
        await queue.waitUntil { $0.running == 0 && $0.totalWaiting == 0 }
    }

    @Test func aTaskRunsWithoutBeingAwaitedAndCanBeCancelled() async throws {
        let gate = Gate()
        let stub = StubTransport()
            .on(.get, "slow", reply: .status(200).held(by: gate))
            .on(.get, "fast", reply: .json(#"{"a":1}"#))
        let provider = makeProvider(stub)
        let fast = provider.task(Endpoint<[String: Int]>.get("fast"))
        let slow = provider.task(Endpoint<Empty>.get("slow"))
        await gate.waitForArrivals(1)
        #expect(try await fast.value == ["a": 1])
        slow.cancel()
        #expect(slow.isCancelled)
        await #expect(throws: CancellationError.self) { try await slow.response }
        gate.open()
    }

    @Test func invalidatingTheProviderCancelsTheTaskItHandedOut() async throws {
        let gate = Gate()
        let stub = StubTransport().on(.get, "slow", reply: .status(200).held(by: gate))
        let provider = makeProvider(stub)
        let slow = provider.task(Endpoint<Empty>.get("slow"))
        await gate.waitForArrivals(1)
        #expect(!slow.isCancelled)
        provider.invalidate()
        // The request runs in the task handed out, so that task is the one cancelled.
        #expect(slow.isCancelled)
        await #expect(throws: CancellationError.self) { try await slow.value }
        gate.open()
    }

    @Test func theMetricsTellTheTimeQueuedAndHeldByABlocker() async throws {
        let gate = Gate()
        let stub = StubTransport()
            .on(.post, "refresh", reply: .status(200).held(by: gate))
            .on(.get, "data", reply: .json("{}"))
        let queue = PriorityRequestQueue(maxConcurrentRequests: 2)
        let provider = makeProvider(stub) { $0.queue = queue }
        let refresh = Task {
            try await provider.send(Endpoint<Empty>.post("refresh").with { $0.priority = .blocker })
        }
        await gate.waitForArrivals(1)
        let data = Task { try await provider.send(Endpoint<Data>.get("data")) }
        await queue.waitUntil { $0.totalWaiting == 1 }
        gate.open()
        let response = try await data.value
        _ = try await refresh.value
        #expect(response.metrics.heldByBlocker > .zero)
        #expect(response.metrics.heldByBlocker <= response.metrics.queued)
        #expect(response.metrics.attempts == 1)
        #expect(response.metrics.transportAttempts.map(\.status) == [200])
        #expect(response.metrics.bytesReceived == 2)
    }
}

/// Holds requests that need credentials at a gate (as a token refresh would); lets the others pass.
struct CredentialGate: AuthStage {
    let gate: Gate

    func authorize(_ request: PreparedRequest, context: RequestContext) async throws -> PreparedRequest {
        if request.requiresAuthentication { try await gate.wait() }
        return request
    }
}
