import Foundation
@testable import Gateway
import GatewayTesting
import Testing

extension TokenTests {
    /// The store is brought up to date before any request waiting for a refresh goes on, and it
    /// never holds a refresh token the server may have spent.
    @Suite(.timeLimit(.minutes(1))) struct RefreshPersistenceTests {
        /// Five requests refused together, waiting for one refresh that answers `reply`; returns
        /// their results once the refresh has settled.
        private func refreshWithFiveWaiters(
            _ reply: StubReply, then later: [StubReply] = [], store: HookedTokenStore,
            log: AuthEventLog = AuthEventLog()
        ) async throws -> (results: [Result<Response<Empty>, any Error>], stub: StubTransport, provider: Provider) {
            let refused = Gate(), refreshing = Gate()
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: Refusal.status401.reply.held(by: refused))
                .on(token: "new", .get, "items", reply: .json("{}"))
                .on(StubMatcher(method: .post, path: "auth/refresh"), reply: [reply.held(by: refreshing)] + later)
            let provider = tokenProvider(stub, store: store) { $0.authObservers = [log] }
            let coordinator = try #require(provider.tokenCoordinator)
            let tasks = start(5, on: provider, Refusal.status401.request)
            await refused.waitForArrivals(5)
            refused.open()
            await coordinator.waitForWaiters(5)
            refreshing.open()
            return (await results(tasks), stub, provider)
        }

        @Test func theRenewedCredentialIsSavedBeforeAnyWaiterGoesOn() async throws {
            let store = HookedTokenStore(oldCredential)
            let waitingAtSave = Locked<[Int]>([])
            let log = AuthEventLog()
            let coordinator = Locked<TokenCoordinator?>(nil)
            store.setHooks { hooks in
                hooks.save = { _ in waitingAtSave.withLock { $0.append(coordinator.value?.waiterCount ?? -1) } }
            }
            let refused = Gate(), refreshing = Gate(), replayed = Gate()
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: Refusal.status401.reply.held(by: refused))
                .on(token: "new", .get, "items", reply: StubReply.json("{}").held(by: replayed))
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2").held(by: refreshing))
            let provider = tokenProvider(stub, store: store) { $0.authObservers = [log] }
            let waiting = try #require(provider.tokenCoordinator)
            coordinator.withLock { $0 = waiting }

            let tasks = start(5, on: provider, Refusal.status401.request)
            await refused.waitForArrivals(5)
            refused.open()
            await waiting.waitForWaiters(5)
            refreshing.open()
            // The first replay is at the server: the new credential was in the store before it left.
            await replayed.waitForArrivals(1)
            #expect(store.load()?.refreshToken == "rt-2")
            #expect(waitingAtSave.value == [5])
            replayed.open()
            #expect(successes(await results(tasks)).count == 5)
            #expect(store.calls.value == ["clear", "save new"])
            #expect(log.names == ["started", "succeeded"])
        }

        @Test func aRefreshEmptiesTheStoreBeforeItsRequestIsSent() async throws {
            let refreshing = Gate()
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: .status(401))
                .on(token: "new", .get, "items", reply: .json("{}"))
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2").held(by: refreshing))
            let store = HookedTokenStore(oldCredential)
            let provider = tokenProvider(stub, store: store)
            let task = Task { try await provider.send(Endpoint<Empty>.get("items")) }
            await refreshing.waitForArrivals(1)
            #expect(store.load() == nil)
            refreshing.open()
            _ = try await task.value
            #expect(store.load()?.refreshToken == "rt-2")
        }

        @Test func aRefusedRefreshClearsTheStoreBeforeAnyWaiterFails() async throws {
            let store = HookedTokenStore(oldCredential)
            let waitingAtClear = Locked<[Int]>([])
            let coordinator = Locked<TokenCoordinator?>(nil)
            store.setHooks { hooks in
                hooks.clear = { waitingAtClear.withLock { $0.append(coordinator.value?.waiterCount ?? -1) } }
            }
            let refused = Gate(), refreshing = Gate()
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: Refusal.status401.reply.held(by: refused))
                .on(.post, "auth/refresh", reply: StubReply.json(#"{"error":"invalid_grant"}"#, status: 400)
                    .held(by: refreshing))
            let provider = tokenProvider(stub, store: store)
            coordinator.withLock { $0 = provider.tokenCoordinator }
            let tasks = start(5, on: provider, Refusal.status401.request)
            await refused.waitForArrivals(5)
            refused.open()
            await provider.tokenCoordinator?.waitForWaiters(5)
            refreshing.open()
            let errors = failures(await results(tasks))
            #expect(errors.count == 5 && errors.allSatisfy { $0.kind == .sessionExpired })
            // The first clear comes before the refresh request (no waiter yet), the second before they fail.
            #expect(waitingAtClear.value == [0, 5])
            #expect(store.load() == nil)
        }

        @Test(arguments: [
            ("the endpoint answered 500", StubReply.status(500)),
            ("the request never left", StubReply.failure(GatewayError(
                .transport, "could not connect", underlying: URLError(.cannotConnectToHost)))),
        ])
        func aRefreshThatCertainlySpentNothingPutsTheOldCredentialBack(_ why: String, reply: StubReply)
            async throws
        {
            let store = HookedTokenStore(oldCredential)
            let (results, _, _) = try await refreshWithFiveWaiters(reply, store: store)
            #expect(failures(results).allSatisfy { $0.kind == .refreshFailed })
            #expect(store.load() == oldCredential, "\(why)")
            #expect(store.calls.value == ["clear", "save old"])
        }

        @Test func aRefreshWhoseAnswerWasLostLeavesTheStoreEmptyAndTriesTheOldCredentialOnceMore() async throws {
            let store = HookedTokenStore(oldCredential)
            let lost = StubReply.failure(GatewayError(.transport, "connection lost",
                                                      underlying: URLError(.networkConnectionLost)))
            let (results, stub, provider) = try await refreshWithFiveWaiters(
                lost, then: [tokens("new", refresh: "rt-2")], store: store)
            #expect(failures(results).allSatisfy { $0.kind == .refreshFailed })
            #expect(store.load() == nil)
            #expect(try await provider.tokenCoordinator?.credential() == oldCredential)

            // While the app runs, the next request refreshes with the old refresh token again.
            _ = try await provider.send(Endpoint<Empty>.get("items"))
            #expect(stub.refreshes.map(\.refreshToken) == ["rt-1", "rt-1"])
            #expect(store.load()?.refreshToken == "rt-2")
        }

        @Test func whenTheRenewedCredentialCannotBeSavedTheSessionGoesOnInMemory() async throws {
            let store = HookedTokenStore(oldCredential)
            store.setHooks { $0.save = { _ in throw StoreBroken() } }
            let log = AuthEventLog()
            let (results, _, provider) = try await refreshWithFiveWaiters(
                tokens("new", refresh: "rt-2"), store: store, log: log)
            let responses = successes(results)
            #expect(responses.count == 5)
            #expect(responses.allSatisfy { $0.request.headers["Authorization"] == "Bearer new" })
            #expect(store.load() == nil)
            #expect(try await provider.tokenCoordinator?.credential()?.refreshToken == "rt-2")
            #expect(log.names == ["started", "store failed", "succeeded"])
            let failure = try #require(log.entries.first { $0.name == "store failed" }?.error)
            #expect(failure.kind == .tokenStore)
            #expect(failure.message == "the renewed credential could not be saved")
        }

        @Test func whenTheStoreCannotBeEmptiedNoRefreshStarts() async throws {
            let store = HookedTokenStore(oldCredential)
            store.setHooks { $0.clear = { throw StoreBroken() } }
            let log = AuthEventLog()
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: .status(401))
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2"))
            let provider = tokenProvider(stub, store: store) { $0.authObservers = [log] }
            let error = await failure(of: provider)
            #expect(error?.kind == .tokenStore)
            #expect(error?.status == 401)
            #expect(error?.message.contains("no refresh was started") == true)
            #expect(stub.refreshes.isEmpty)
            #expect(store.load() == oldCredential)
            #expect(log.names == ["store failed"])
        }

        @Test func savingDuringARefreshStoresTheCredentialBeforeTheWaitersGetIt() async throws {
            let store = HookedTokenStore(oldCredential)
            let waitingAtSave = Locked<[Int]>([])
            let coordinator = Locked<TokenCoordinator?>(nil)
            store.setHooks { hooks in
                hooks.save = { _ in waitingAtSave.withLock { $0.append(coordinator.value?.waiterCount ?? -1) } }
            }
            let refused = Gate(), refreshing = Gate()
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: Refusal.status401.reply.held(by: refused))
                .on(token: "saved", .get, "items", reply: .json("{}"))
                .on(.post, "auth/refresh", reply: tokens("refreshed").held(by: refreshing))
            let provider = tokenProvider(stub, store: store)
            let signedIn = try #require(provider.tokenCoordinator)
            coordinator.withLock { $0 = signedIn }
            // All three are sent before the refresh begins (a refresh, a blocker, holds the queue).
            let tasks = start(3, on: provider, Refusal.status401.request)
            await refused.waitForArrivals(3)
            refused.open()
            await signedIn.waitForWaiters(3)
            try await signedIn.save(Credential(accessToken: "saved", refreshToken: "rt-s"))
            #expect(successes(await results(tasks)).count == 3)
            #expect(waitingAtSave.value == [3])
            refreshing.open()
            await signedIn.latestRefreshSettled()
            #expect(store.load()?.accessToken == "saved")
        }

        @Test func logoutClearsTheStoreBeforeTheWaitersFail() async throws {
            let store = HookedTokenStore(oldCredential)
            let waitingAtClear = Locked<[Int]>([])
            let coordinator = Locked<TokenCoordinator?>(nil)
            store.setHooks { hooks in
                hooks.clear = { waitingAtClear.withLock { $0.append(coordinator.value?.waiterCount ?? -1) } }
            }
            let refused = Gate(), refreshing = Gate()
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: Refusal.status401.reply.held(by: refused))
                .on(.post, "auth/refresh", reply: tokens("new").held(by: refreshing))
            let provider = tokenProvider(stub, store: store)
            let signedIn = try #require(provider.tokenCoordinator)
            coordinator.withLock { $0 = signedIn }
            let tasks = start(3, on: provider, Refusal.status401.request)
            await refused.waitForArrivals(3)
            refused.open()
            await signedIn.waitForWaiters(3)
            try await provider.logout()
            #expect(failures(await results(tasks)).allSatisfy { $0.kind == .loggedOut })
            #expect(waitingAtClear.value == [0, 3])
            refreshing.open()
            await signedIn.latestRefreshSettled()
            #expect(store.load() == nil)
        }
    }
}
