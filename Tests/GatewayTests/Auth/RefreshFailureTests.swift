import Foundation
@testable import Gateway
import GatewayTesting
import Testing

extension TokenTests {
    /// Issue 7, "Done when" 2, 3 and 5: failed refreshes, the refresh guard, and expired sessions.
    @Suite struct RefreshFailureTests {
        @Test(arguments: Refusal.allCases)
        func aFailedRefreshFailsEveryWaiterAtOnceWithTheSameErrorAndSendsNoneAgain(refusal: Refusal) async throws {
            let refused = Gate(), refreshing = Gate()
            let stub = StubTransport()
                .on(token: "old", refusal.method, refusal.path, reply: refusal.reply.held(by: refused))
                .on(token: "new", refusal.method, refusal.path, reply: refusal.success)
                .on(.post, "auth/refresh", reply: StubReply.status(500).held(by: refreshing),
                    tokens("new", refresh: "rt-2"))
            let log = AuthEventLog()
            let waiting = WaitersWhenRefreshFails()
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential)) {
                $0.authObservers = [log, waiting]
            }
            let coordinator = try #require(provider.tokenCoordinator)
            waiting.coordinator.withLock { $0 = coordinator }

            let tasks = start(100, on: provider, refusal.request)
            await refused.waitForArrivals(100)
            refused.open()
            await coordinator.waitForWaiters(100)
            refreshing.open()
            let errors = failures(await results(tasks))

            // All 100 still waited when the refresh failed (none had gone on alone), and all end with its error.
            #expect(waiting.counts.value == [100])
            #expect(errors.count == 100)
            #expect(Set(errors.map(\.kind)) == [.refreshFailed])
            #expect(Set(errors.map(\.message)).count == 1)
            #expect(errors.allSatisfy { $0.response?.status == 500 })
            #expect(stub.calls.count == 100)
            #expect(stub.calls.allSatisfy { $0.bearer == "old" })
            #expect(log.names == ["started", "failed"])

            // A new request afterwards refreshes again.
            let after = try await provider.send(refusal.request(100))
            #expect(after.metrics.authReplays == 1)
            #expect(stub.refreshes.count == 2)
        }

        @Test func aLaterSuccessDoesNotResetTheRefreshCount() async throws {
            // Every token is refused; the first refresh fails, the others succeed.
            let stub = StubTransport()
                .on(.get, "items", reply: .status(401))
                .on(.post, "auth/refresh", reply: .status(500), tokens("a"), tokens("b"), tokens("c"), tokens("d"),
                    tokens("e"), tokens("f"))
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential), clock: FrozenClock())

            let first = await failure(of: provider)
            #expect(first?.kind == .refreshFailed)
            var last: GatewayError?
            for _ in 0..<5 where last?.kind != .excessiveRefresh {
                last = await failure(of: provider)
            }
            #expect(last?.kind == .excessiveRefresh)
            // 1 failed + 4 successful refreshes make the 5 the guard allows; a reset would have allowed more.
            #expect(stub.refreshes.count == 5)
        }

        @Test(arguments: Refusal.allCases)
        func aServerThatRefusesEveryTokenGetsAtMostFiveRefreshesPerThirtySeconds(refusal: Refusal) async throws {
            let clock = FrozenClock()
            let stub = StubTransport()
                .on(refusal.method, refusal.path, reply: refusal.reply)
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2"))
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential), clock: clock)

            var last: GatewayError?
            var calls = 0
            while last?.kind != .excessiveRefresh, calls < 10 {
                calls += 1
                last = await #expect(throws: GatewayError.self) { try await provider.send(refusal.request(calls)) }
            }
            let error = try #require(last)
            #expect(error.kind == .excessiveRefresh)
            #expect(error.response?.status == (refusal == .status401 ? 401 : 200))
            #expect(error.response.map { String(decoding: $0.body, as: UTF8.self) }?.contains(
                refusal == .status401 ? "invalid_token" : "UNAUTHENTICATED") == true)
            #expect(error.description.contains("refreshed 5 times within 30 s"))
            #expect(stub.refreshes.count == 5)

            // Within the interval nothing more is refreshed; after it, refreshing starts again.
            clock.advance(by: .seconds(29))
            let again = await #expect(throws: GatewayError.self) { try await provider.send(refusal.request(100)) }
            #expect(again?.kind == .excessiveRefresh)
            #expect(stub.refreshes.count == 5)
            clock.advance(by: .seconds(1))
            _ = await #expect(throws: GatewayError.self) { try await provider.send(refusal.request(101)) }
            #expect(stub.refreshes.count > 5)
            #expect(stub.refreshes.count <= 10)
        }

        @Test func aRefusedRefreshEndsTheSessionAndSaysSo() async throws {
            let refused = Gate(), refreshing = Gate()
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: StubReply.status(401).held(by: refused))
                .on(token: "fresh", .get, "items", reply: .json("{}"))
                .on(.post, "auth/refresh", reply: StubReply.json(#"{"error":"invalid_grant"}"#, status: 400)
                    .held(by: refreshing))
            let store = MemoryTokenStore(oldCredential)
            let log = AuthEventLog()
            let provider = tokenProvider(stub, store: store) { $0.authObservers = [log] }
            let coordinator = try #require(provider.tokenCoordinator)

            // The refusal comes once all five wait for the refresh (a request whose 401 came after
            // it would end with its own 401 attached instead).
            let tasks = start(5, on: provider, Refusal.status401.request)
            await refused.waitForArrivals(5)
            refused.open()
            await coordinator.waitForWaiters(5)
            refreshing.open()
            let errors = failures(await results(tasks))
            #expect(errors.count == 5)
            #expect(errors.allSatisfy { $0.kind == .sessionExpired && $0.response?.status == 400 })
            #expect(stub.refreshes.count == 1)
            #expect(store.load() == nil)
            let expired = try #require(log.entries.first { $0.name == "expired" })
            #expect(expired.subject == "user-1")
            #expect(expired.error?.kind == .sessionExpired)

            // Later requests fail at once, until someone signs in again.
            let sentBefore = stub.requests.count
            let later = await failure(of: provider)
            #expect(later?.kind == .sessionExpired)
            #expect(stub.requests.count == sentBefore)
            try await provider.tokenCoordinator?.save(Credential(accessToken: "fresh", refreshToken: "rt-9"))
            _ = try await provider.send(Endpoint<Empty>.get("items"))
            #expect(store.load()?.accessToken == "fresh")
        }

        @Test func aCredentialThatCannotBeRefreshedFailsWhenRefused() async throws {
            let stub = StubTransport().on(.get, "items", reply: .status(401))
            let provider = tokenProvider(stub, store: MemoryTokenStore(Credential(accessToken: "old"))) {
                $0.authenticator = .nonRefreshing
            }
            let error = await failure(of: provider)
            #expect(error?.kind == .authentication)
            #expect(error?.status == 401)
            #expect(error?.description.contains("cannot be refreshed") == true)
            #expect(stub.requests.count == 1)
        }
    }
}

/// How many requests waited for the refresh when observers heard that it failed.
final class WaitersWhenRefreshFails: AuthEventObserver {
    let coordinator = Locked<TokenCoordinator?>(nil)
    let counts = Locked<[Int]>([])
    func refreshFailed(_ error: GatewayError) {
        counts.withLock { $0.append(coordinator.value?.waiterCount ?? -1) }
    }
}
