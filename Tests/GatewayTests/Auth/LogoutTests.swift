import Foundation
@testable import Gateway
import GatewayTesting
import Testing

extension TokenTests {
    /// Issue 7, "Done when" 6: logout wins over a refresh in flight.
    @Suite struct LogoutTests {
        enum StoreKind: String, CaseIterable, Sendable {
            case memory, file
        }

        @Test(arguments: Refusal.allCases, StoreKind.allCases)
        func logoutDuringARefreshWins(refusal: Refusal, storeKind: StoreKind) async throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let store: any TokenStore = switch storeKind {
            case .memory: MemoryTokenStore()
            case .file: FileTokenStore(directory: folder.url.appendingPathComponent("tokens"))
            }
            try store.save(oldCredential)
            let refused = Gate(), refreshing = Gate()
            let stub = StubTransport()
                .on(token: "old", refusal.method, refusal.path, reply: refusal.reply.held(by: refused))
                .on(token: "new", refusal.method, refusal.path, reply: refusal.success)
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2").held(by: refreshing))
            let log = AuthEventLog()
            let provider = tokenProvider(stub, store: store) { $0.authObservers = [log] }
            let coordinator = try #require(provider.tokenCoordinator)

            let tasks = start(10, on: provider, refusal.request)
            await refused.waitForArrivals(10)
            refused.open()
            await coordinator.waitForWaiters(10)

            try await provider.logout()
            let errors = failures(await results(tasks))
            #expect(errors.count == 10)
            #expect(errors.allSatisfy { $0.kind == .loggedOut })
            #expect(log.entries.filter { $0.name == "logged out" }.map(\.subject) == ["user-1"])
            #expect(try store.load() == nil)

            // The refresh returns after the logout: its result is discarded.
            refreshing.open()
            await coordinator.latestRefreshSettled()
            #expect(stub.refreshes.count == 1)
            #expect(try store.load() == nil)
            #expect(try await coordinator.credential() == nil)
            #expect(!log.names.contains("succeeded"))
            // Nothing was replayed.
            #expect(stub.calls.count == 10)
            #expect(stub.calls.allSatisfy { $0.bearer == "old" })

            // Requests after logout fail without reaching the server.
            let later = await #expect(throws: GatewayError.self) { try await provider.send(refusal.request(99)) }
            #expect(later?.kind == .loggedOut)
            #expect(stub.requests.count == 11)
        }

        @Test func logoutCallsTheHookWithTheSubjectAndClearsTheStore() async throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let store = FileTokenStore(directory: folder.url.appendingPathComponent("tokens"))
            try store.save(oldCredential)
            let log = AuthEventLog()
            let provider = tokenProvider(StubTransport(), store: store) { $0.authObservers = [log] }

            try await provider.logout()
            #expect(log.entries.map(\.name) == ["logged out"])
            #expect(log.entries.first?.subject == "user-1")
            #expect(!FileManager.default.fileExists(atPath: store.fileURL.path))
            try await provider.logout()
            #expect(log.entries.map(\.subject) == ["user-1", nil])
        }

        @Test func theResponseCacheForgetsTheUserOnLogout() async throws {
            let stub = StubTransport().on(.get, "items", reply: .json("{}", headers: ["Cache-Control": "private, max-age=60"]))
            let store = MemoryCacheStore()
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential)) {
                $0.cache = ResponseCache(store: store)
            }
            _ = try await provider.send(Endpoint<Empty>.get("items"))
            #expect(try await store.list().map(\.entry.key.components.partition) == [.subject("user-1")])
            try await provider.logout()
            #expect(try await store.list().isEmpty)
        }

        @Test func signingInAfterLogoutStartsAFreshSession() async throws {
            let stub = StubTransport().on(token: "second", .get, "items", reply: .json("{}"))
            let store = MemoryTokenStore(oldCredential)
            let provider = tokenProvider(stub, store: store)
            try await provider.logout()
            try await provider.tokenCoordinator?.save(Credential(accessToken: "second", subject: "user-2"))
            let response = try await provider.send(Endpoint<Empty>.get("items"))
            #expect(response.request.headers["Authorization"] == "Bearer second")
            #expect(store.load()?.subject == "user-2")
            #expect(try await provider.tokenCoordinator?.subject() == "user-2")
        }

        @Test func aRequestOfAnEndedSessionIsNeverSentAgainWithTheNextSessionsToken() async throws {
            let refused = Gate(), unavailable = Gate()
            let stub = StubTransport()
                .on(token: "old", .get, "refused", reply: Refusal.status401.reply.held(by: refused))
                .on(token: "old", .get, "flaky", reply: StubReply.status(503).held(by: unavailable))
                .on(token: "second", .get, "refused", reply: .json("{}"))
                .on(token: "second", .get, "flaky", reply: .json("{}"))
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential)) {
                $0.retryPolicy = RetryPolicy(maxRetries: 1, initialDelay: .zero)
            }
            let refusedTask = Task { try await provider.send(Endpoint<Empty>.get("refused")) }
            let flakyTask = Task { try await provider.send(Endpoint<Empty>.get("flaky")) }
            await refused.waitForArrivals(1)
            await unavailable.waitForArrivals(1)

            try await provider.logout()
            try await provider.tokenCoordinator?.save(Credential(accessToken: "second", subject: "user-2"))
            refused.open()
            unavailable.open()

            let refusal = await #expect(throws: GatewayError.self) { try await refusedTask.value }
            #expect(refusal?.kind == .loggedOut)
            let retry = await #expect(throws: GatewayError.self) { try await flakyTask.value }
            #expect(retry?.kind == .loggedOut)
            #expect(stub.requests.map(\.bearer) == ["old", "old"])
        }

        @Test func savingDuringARefreshHandsTheSavedCredentialToTheWaiters() async throws {
            let refused = Gate(), refreshing = Gate()
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: Refusal.status401.reply.held(by: refused))
                .on(token: "saved", .get, "items", reply: .json("{}"))
                .on(.post, "auth/refresh", reply: tokens("refreshed").held(by: refreshing))
            let store = MemoryTokenStore(oldCredential)
            let provider = tokenProvider(stub, store: store)
            let coordinator = try #require(provider.tokenCoordinator)

            let tasks = start(5, on: provider, Refusal.status401.request)
            await refused.waitForArrivals(5)
            refused.open()
            await coordinator.waitForWaiters(5)
            try await coordinator.save(Credential(accessToken: "saved", refreshToken: "rt-s"))
            let responses = successes(await results(tasks))
            #expect(responses.count == 5)
            #expect(responses.allSatisfy { $0.request.headers["Authorization"] == "Bearer saved" })
            refreshing.open()
            await coordinator.latestRefreshSettled()
            #expect(store.load()?.accessToken == "saved")
        }
    }
}
