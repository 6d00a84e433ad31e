import Foundation
@testable import Gateway
import GatewayTesting
import Testing

extension TokenTests {
    /// Issue 7, "Done when" 1, 4 and 5: one refresh for many refused requests, each replayed once.
    @Suite struct SingleFlightRefreshTests {
        @Test(arguments: Refusal.allCases)
        func oneHundredRefusedRequestsShareOneRefreshAndEachIsReplayedOnceWithTheNewToken(refusal: Refusal)
            async throws
        {
            let refused = Gate(), refreshing = Gate()
            let stub = StubTransport()
                .on(token: "old", refusal.method, refusal.path, reply: refusal.reply.held(by: refused))
                .on(token: "new", refusal.method, refusal.path, reply: refusal.success)
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2").held(by: refreshing))
            let queue = PriorityRequestQueue(maxConcurrentRequests: 256)
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential)) { $0.queue = queue }

            let first = start(100, on: provider, refusal.request)
            await refused.waitForArrivals(100)
            refused.open()
            await refreshing.waitForArrivals(1)

            // 50 requests made while the refresh runs are held, not sent with the old token.
            let later = start(50, on: provider) { refusal.request(100 + $0) }
            await queue.waitUntil { $0.totalWaiting == 50 }
            #expect(stub.calls.count == 100)
            refreshing.open()

            let firstResponses = successes(await results(first))
            let laterResponses = successes(await results(later))
            #expect(firstResponses.count == 100)
            #expect(laterResponses.count == 50)
            #expect(stub.refreshes.count == 1)
            #expect(firstResponses.allSatisfy { $0.metrics.authReplays == 1 && $0.metrics.attempts == 2 })
            #expect(firstResponses.allSatisfy { $0.request.headers["Authorization"] == "Bearer new" })
            #expect(laterResponses.allSatisfy { $0.metrics.authReplays == 0 && $0.metrics.attempts == 1 })

            let requests = stub.requests
            let refreshIndex = try #require(requests.firstIndex { $0.isRefresh })
            #expect(requests[refreshIndex...].filter { $0.bearer == "old" }.isEmpty)
            #expect(requests.filter { $0.bearer == "old" }.count == 100)
            #expect(requests.filter { $0.bearer == "new" }.count == 150)
            // Each of the first 100 went exactly twice: once refused, once replayed.
            let byBody = Dictionary(grouping: stub.calls) { "\($0.url.query ?? "")|\($0.bodyText)" }
            #expect(byBody.count == 150)
            #expect(byBody.values.filter { $0.map(\.bearer) == ["old", "new"] }.count == 100)
            #expect(try await provider.tokenCoordinator?.credential()?.accessToken == "new")
        }

        @Test func withoutAQueueRequestsMadeDuringARefreshWaitForItInTheAuthStage() async throws {
            let refreshing = Gate()
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: .status(401))
                .on(token: "new", .get, "items", reply: .json("{}"))
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2").held(by: refreshing))
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential)) { $0.queue = .immediate }
            let coordinator = try #require(provider.tokenCoordinator)

            let first = Task { try await provider.send(Endpoint<Empty>.get("items")) }
            await refreshing.waitForArrivals(1)
            let later = start(30, on: provider, Refusal.status401.request)
            await coordinator.waitForWaiters(31)
            #expect(stub.calls.count == 1)
            refreshing.open()

            #expect(try await first.value.metrics.authReplays == 1)
            let responses = successes(await results(later))
            #expect(responses.count == 30)
            #expect(responses.allSatisfy { $0.metrics.authReplays == 0 })
            #expect(stub.calls.filter { $0.bearer == "old" }.count == 1)
            #expect(stub.refreshes.count == 1)
        }

        @Test func theOAuthAuthenticatorCanPostAFormAndKeepsWhatTheAnswerLeavesOut() async throws {
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: .status(401))
                .on(token: "new", .get, "items", reply: .json("{}"))
                .on(.post, "oauth/token", reply: tokens("new", refresh: nil, expiresIn: 60))
            let clock = ManualClock()
            let store = MemoryTokenStore(oldCredential)
            let provider = tokenProvider(stub, store: store, clock: clock) {
                $0.authenticator = RefreshTokenAuthenticator(path: "oauth/token", encoding: .form,
                                                             extraParameters: ["client_id": "app"])
                $0.tokenOptions = TokenCoordinator.Options(proactiveRefreshWindow: .zero)
            }
            _ = try await provider.send(Endpoint<Empty>.get("items"))
            let refresh = try #require(stub.requests.first { $0.url.path.hasSuffix("oauth/token") })
            #expect(Set(refresh.bodyText.split(separator: "&")) == ["client_id=app", "grant_type=refresh_token",
                                                                    "refresh_token=rt-1"])
            #expect(refresh.headers["Content-Type"]?.hasPrefix("application/x-www-form-urlencoded") == true)
            let stored = try #require(store.load())
            #expect(stored.refreshToken == "rt-1")
            #expect(stored.subject == "user-1")
            #expect(stored.expiresAt == clock.date.addingTimeInterval(60))
        }

        @Test func restAndGraphQLRequestsSharingOneStoreShareOneRefresh() async throws {
            let refused = Gate()
            let stub = StubTransport()
            for refusal in Refusal.allCases {
                stub.on(token: "old", refusal.method, refusal.path, reply: refusal.reply.held(by: refused))
                stub.on(token: "new", refusal.method, refusal.path, reply: refusal.success)
            }
            stub.on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2"))
            let store = MemoryTokenStore(oldCredential)
            let provider = tokenProvider(stub, store: store)

            let tasks = start(100, on: provider) { index in Refusal.allCases[index % 2].request(index) }
            await refused.waitForArrivals(100)
            refused.open()

            let responses = successes(await results(tasks))
            #expect(responses.count == 100)
            #expect(stub.refreshes.count == 1)
            #expect(responses.allSatisfy { $0.metrics.authReplays == 1 })
            #expect(stub.calls.filter { $0.method == .post }.count == 100)
            #expect(stub.calls.filter { $0.method == .get }.count == 100)
            #expect(store.load()?.accessToken == "new")
        }

        @Test(arguments: Refusal.allCases)
        func aTokenAboutToExpireIsRenewedOnceBeforeItIsSent(refusal: Refusal) async throws {
            let clock = ManualClock()
            let refreshing = Gate()
            let stub = StubTransport()
                .on(token: "old", refusal.method, refusal.path, reply: refusal.reply)
                .on(token: "new", refusal.method, refusal.path, reply: refusal.success)
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2").held(by: refreshing))
            var expiring = oldCredential
            expiring.expiresAt = clock.date.addingTimeInterval(10)
            let log = AuthEventLog()
            let provider = tokenProvider(stub, store: MemoryTokenStore(expiring), clock: clock) {
                $0.authObservers = [log]
            }

            let tasks = start(20, on: provider, refusal.request)
            await refreshing.waitForArrivals(1)
            refreshing.open()
            let responses = successes(await results(tasks))

            #expect(responses.count == 20)
            #expect(stub.refreshes.count == 1)
            #expect(stub.requests.filter { $0.bearer == "old" }.isEmpty)
            #expect(responses.allSatisfy { $0.metrics.authReplays == 0 })
            #expect(log.names == ["started proactive", "succeeded"])
        }

        @Test func theProactiveWindowIsConfigurable() async throws {
            let clock = ManualClock()
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: .json("{}"))
                .on(.post, "auth/refresh", reply: tokens("new"))
            var credential = oldCredential
            credential.expiresAt = clock.date.addingTimeInterval(10)
            let provider = tokenProvider(stub, store: MemoryTokenStore(credential), clock: clock) {
                $0.tokenOptions = TokenCoordinator.Options(proactiveRefreshWindow: .seconds(5))
            }
            _ = try await provider.send(Endpoint<Empty>.get("items"))
            #expect(stub.refreshes.isEmpty)
            clock.advance(by: .seconds(6))
            stub.on(token: "new", .get, "items", reply: .json("{}"))
            _ = try await provider.send(Endpoint<Empty>.get("items"))
            #expect(stub.refreshes.count == 1)
        }

        @Test func aRefusalOfATokenAlreadyReplacedReplaysWithTheCurrentOneAndRefreshesNothing() async throws {
            let slow = Gate()
            let stub = StubTransport()
                .on(token: "old", .get, "slow", reply: StubReply.status(401).held(by: slow))
                .on(token: "old", .get, "fast", reply: .status(401))
                .on(token: "new", .get, "slow", reply: .json("{}"))
                .on(token: "new", .get, "fast", reply: .json("{}"))
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2"))
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential))

            let slowTask = Task { try await provider.send(Endpoint<Empty>.get("slow")) }
            await slow.waitForArrivals(1)
            let fast = try await provider.send(Endpoint<Empty>.get("fast"))
            #expect(fast.metrics.authReplays == 1)
            #expect(await provider.tokenCoordinator?.credentialVersion == 2)
            slow.open()
            let late = try await slowTask.value

            #expect(late.metrics.authReplays == 1)
            #expect(late.request.headers["Authorization"] == "Bearer new")
            #expect(stub.refreshes.count == 1)
            #expect(await provider.tokenCoordinator?.credentialVersion == 2)
        }

        @Test func aRetryAfterARefreshCarriesTheNewToken() async throws {
            let unavailable = Gate()
            let stub = StubTransport()
                .on(token: "old", .get, "flaky", reply: StubReply.status(503).held(by: unavailable))
                .on(token: "new", .get, "flaky", reply: .json("{}"))
                .on(token: "old", .get, "other", reply: .status(401))
                .on(token: "new", .get, "other", reply: .json("{}"))
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2"))
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential)) {
                $0.retryPolicy = RetryPolicy(maxRetries: 1, initialDelay: .zero)
            }
            let flaky = Task { try await provider.send(Endpoint<Empty>.get("flaky")) }
            await unavailable.waitForArrivals(1)
            _ = try await provider.send(Endpoint<Empty>.get("other"))
            unavailable.open()
            let response = try await flaky.value
            #expect(response.metrics.retries == 1)
            #expect(response.metrics.authReplays == 0)
            #expect(stub.requests.filter { $0.url.path.hasSuffix("flaky") }.map(\.bearer) == ["old", "new"])
        }

        @Test func cancellingOneWaiterRemovesOnlyIt() async throws {
            let refused = Gate(), refreshing = Gate()
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: Refusal.status401.reply.held(by: refused))
                .on(token: "new", .get, "items", reply: .json("{}"))
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2").held(by: refreshing))
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential))
            let coordinator = try #require(provider.tokenCoordinator)

            let tasks = start(10, on: provider, Refusal.status401.request)
            await refused.waitForArrivals(10)
            refused.open()
            await coordinator.waitForWaiters(10)
            tasks[3].cancel()
            let cancelled = await tasks[3].result
            #expect(throws: CancellationError.self) { try cancelled.get() }
            #expect(coordinator.waiterCount == 9)
            refreshing.open()

            var others = tasks
            others.remove(at: 3)
            let responses = successes(await results(others))
            #expect(responses.count == 9)
            #expect(stub.refreshes.count == 1)
            #expect(stub.calls.count == 19)
        }

        @Test func cancellingEveryWaiterDoesNotCancelTheRefresh() async throws {
            let refused = Gate(), refreshing = Gate()
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: Refusal.status401.reply.held(by: refused))
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2").held(by: refreshing))
            let store = MemoryTokenStore(oldCredential)
            let log = AuthEventLog()
            let provider = tokenProvider(stub, store: store) { $0.authObservers = [log] }
            let coordinator = try #require(provider.tokenCoordinator)

            let tasks = start(10, on: provider, Refusal.status401.request)
            await refused.waitForArrivals(10)
            refused.open()
            await coordinator.waitForWaiters(10)
            for task in tasks { task.cancel() }
            for result in await results(tasks) {
                #expect(throws: CancellationError.self) { try result.get() }
            }
            refreshing.open()
            await log.waitFor("succeeded")

            #expect(store.load()?.accessToken == "new")
            #expect(store.load()?.refreshToken == "rt-2")
            #expect(stub.calls.count == 10)
        }
    }
}
