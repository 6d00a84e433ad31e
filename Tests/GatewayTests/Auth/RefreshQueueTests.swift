import Foundation
@testable import Gateway
import GatewayTesting
import Testing

extension TokenTests {
    /// Issue 7, "Done when" 9: the refresh never waits for requests that wait for it.
    @Suite(.timeLimit(.minutes(1))) struct RefreshQueueTests {
        @Test(arguments: Refusal.allCases)
        func aRefreshWithTheQueueFullCompletes(refusal: Refusal) async throws {
            let refused = Gate()
            let stub = StubTransport()
                .on(token: "old", refusal.method, refusal.path, reply: refusal.reply.held(by: refused))
                .on(token: "new", refusal.method, refusal.path, reply: refusal.success)
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2"))
            let queue = PriorityRequestQueue(maxConcurrentRequests: 4)
            let observer = BlockerWatch()
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential)) {
                $0.queue = queue
                $0.observers = [observer]
            }

            let tasks = start(10, on: provider, refusal.request)
            await refused.waitForArrivals(4)
            await queue.waitUntil { $0.running == 4 && $0.totalWaiting == 6 }
            refused.open()

            let responses = successes(await results(tasks))
            #expect(responses.count == 10)
            #expect(stub.refreshes.count == 1)
            #expect(observer.refreshPriorities.value == [.blocker])
            #expect(queue.status.running == 0)
        }

        @Test func aBlockerRequestThatIsRefusedGetsItsRefresh() async throws {
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: .status(401))
                .on(token: "new", .get, "items", reply: .json("{}"))
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2"))
            let queue = PriorityRequestQueue(maxConcurrentRequests: 1)
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential)) { $0.queue = queue }
            let response = try await provider.send(Endpoint<Empty>.get("items").with { $0.priority = .blocker })
            #expect(response.metrics.authReplays == 1)
            #expect(stub.refreshes.count == 1)
            await queue.waitUntil { $0.running == 0 && !$0.blockerRunning && $0.totalWaiting == 0 }
        }

        @Test func aRefreshQueuedBehindABlockerThatComesToWaitForItStopsWaitingForTheQueue() async throws {
            // An ordinary request is running when a blocker request takes the queue's blocker place;
            // the ordinary request's refusal starts a refresh, which queues behind the blocker; then
            // the blocker's refusal arrives and it waits for that refresh.
            let ordinaryRefused = Gate(), urgentRefused = Gate()
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: StubReply.status(401).held(by: ordinaryRefused))
                .on(token: "old", .get, "urgent", reply: StubReply.status(401).held(by: urgentRefused))
                .on(token: "new", .get, "urgent", reply: .json("{}"))
                .on(token: "new", .get, "items", reply: .json("{}"))
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2"))
            let queue = PriorityRequestQueue(maxConcurrentRequests: 4)
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential)) { $0.queue = queue }
            let coordinator = try #require(provider.tokenCoordinator)

            let ordinary = Task { try await provider.send(Endpoint<Empty>.get("items")) }
            await ordinaryRefused.waitForArrivals(1)
            let urgent = Task { try await provider.send(Endpoint<Empty>.get("urgent").with { $0.priority = .blocker }) }
            await urgentRefused.waitForArrivals(1)
            ordinaryRefused.open()
            await coordinator.waitForWaiters(1)
            await queue.waitUntil { $0.blockerRunning && $0.waiting[.blocker] == 1 }
            #expect(stub.refreshes.isEmpty)
            urgentRefused.open()

            #expect(try await urgent.value.metrics.authReplays == 1)
            #expect(try await ordinary.value.metrics.authReplays == 1)
            #expect(stub.refreshes.count == 1)
            await queue.waitUntil { $0.running == 0 && !$0.blockerRunning && $0.totalWaiting == 0 }
        }
    }
}

/// Records the priority of each credential refresh request.
final class BlockerWatch: Observer {
    let refreshPriorities = Locked<[RequestPriority]>([])
    func requestDequeued(_ context: RequestContext) {
        if context.isCredentialRefresh { refreshPriorities.withLock { $0.append(context.priority) } }
    }
}
