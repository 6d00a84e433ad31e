import Foundation
@testable import Gateway
import GatewayTesting
import Testing

extension TokenTests {
    /// Where the credential goes, and where it never goes.
    @Suite struct TokenAttachmentTests {
        @Test func aTokenGoesOnlyToTheProvidersOwnOriginsAndOnlyWhenNeeded() async throws {
            let stub = StubTransport(unmatched: .notFound)
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential)) {
                $0.credentialOrigins = [URL(string: "https://media.example.com/")!]
            }
            _ = try? await provider.send(Endpoint<Empty>.get("items"))
            _ = try? await provider.send(Endpoint<Empty>.get("public").with { $0.requiresAuthentication = false })
            _ = try? await provider.send(Endpoint<Empty>.get("https://elsewhere.example.net/x").with {
                $0.pathOptions = .allowAbsoluteURL
            })
            _ = try? await provider.send(Endpoint<Empty>.get("https://media.example.com/y").with {
                $0.pathOptions = .allowAbsoluteURL
            })
            _ = try? await provider.send(Endpoint<Empty>.get("http://api.example.com/v1/z").with {
                $0.pathOptions = .allowAbsoluteURL
            })
            let sent = Dictionary(stub.requests.map { ($0.url.absoluteString, $0.bearer) }) { first, _ in first }
            #expect(sent["https://api.example.com/v1/items"] == .some("old"))
            #expect(sent["https://api.example.com/v1/public"] == .some(nil))
            #expect(sent["https://elsewhere.example.net/x"] == .some(nil))
            #expect(sent["https://media.example.com/y"] == .some("old"))
            #expect(sent["http://api.example.com/v1/z"] == .some(nil))
        }

        @Test func aRefusalFromAnotherOriginStartsNoRefresh() async throws {
            let stub = StubTransport()
                .on(.get, "x", reply: .status(401))
                .on(.post, "auth/refresh", reply: tokens("new"))
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential))
            let error = await #expect(throws: GatewayError.self) {
                try await provider.send(Endpoint<Empty>.get("https://elsewhere.example.net/x").with {
                    $0.pathOptions = .allowAbsoluteURL
                })
            }
            #expect(error?.kind == .status)
            #expect(stub.refreshes.isEmpty)
        }

        @Test func theRefreshRequestSkipsTheAuthStageAndGoesAsABlocker() async throws {
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: .status(401))
                .on(token: "new", .get, "items", reply: .json("{}"))
                .on(.post, "auth/refresh", reply: tokens("new"))
            let watch = BlockerWatch()
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential)) { config in
                config.observers = [watch]
                // An endpoint that, left to itself, would require authentication.
                config.authenticator = .refresh { credential, client in
                    let endpoint = Endpoint<Data>.post("auth/refresh", body: ["refresh_token": "rt-1"])
                    let answer = try await client.send(endpoint)
                    #expect(answer.request.headers["Authorization"] == nil)
                    return Credential(accessToken: "new", refreshToken: credential.refreshToken)
                }
            }
            _ = try await provider.send(Endpoint<Empty>.get("items"))
            #expect(stub.refreshes.count == 1)
            #expect(stub.refreshes.first?.headers["Authorization"] == nil)
            #expect(watch.refreshPriorities.value == [.blocker])
        }

        @Test func aRefusedRefreshRequestIsNotAnsweredWithAnotherRefresh() async throws {
            let stub = StubTransport()
                .on(.get, "items", reply: .status(401))
                .on(.post, "auth/refresh", reply: .json(#"{"error":"invalid_token"}"#, status: 401))
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential))
            let error = await failure(of: provider)
            #expect(error?.kind == .sessionExpired)
            #expect(stub.refreshes.count == 1)
        }

        @Test func withoutACredentialARequestThatNeedsOneFailsBeforeReachingTheServer() async throws {
            let stub = StubTransport().on(.get, "public", reply: .json("{}"))
            let provider = tokenProvider(stub, store: MemoryTokenStore())
            let error = await failure(of: provider)
            #expect(error?.kind == .authentication)
            #expect(error?.description.contains("nobody is signed in") == true)
            #expect(stub.requests.isEmpty)
            _ = try await provider.send(Endpoint<Empty>.get("public").with { $0.requiresAuthentication = false })
            #expect(stub.requests.count == 1)
        }

        @Test func savingACredentialSignsIn() async throws {
            let stub = StubTransport().on(token: "fresh", .get, "items", reply: .json("{}"))
            let store = MemoryTokenStore()
            let provider = tokenProvider(stub, store: store)
            try await provider.tokenCoordinator?.save(Credential(accessToken: "fresh", subject: "user-7"))
            _ = try await provider.send(Endpoint<Empty>.get("items"))
            #expect(store.load()?.subject == "user-7")
        }

        @Test func aStoreThatCannotBeReadFailsTheRequestWithItsError() async throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let store = FileTokenStore(directory: folder.url.appendingPathComponent("tokens"))
            try store.save(oldCredential)
            #expect(chmod(store.fileURL.path, 0o644) == 0)
            let stub = StubTransport()
            let provider = tokenProvider(stub, store: store)
            let error = await failure(of: provider)
            #expect(error?.kind == .tokenStore)
            #expect(stub.requests.isEmpty)
        }

        @Test func providersSharingACoordinatorShareOneRefresh() async throws {
            let refused = Gate()
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: Refusal.status401.reply.held(by: refused))
                .on(token: "new", .get, "items", reply: .json("{}"))
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2"))
            let coordinator = TokenCoordinator(store: MemoryTokenStore(oldCredential),
                                               authenticator: RefreshTokenAuthenticator(path: "auth/refresh"))
            let rest = Provider(baseURL: testBaseURL, transport: stub) { $0.tokenCoordinator = coordinator }
            let graph = Provider(baseURL: testBaseURL, transport: stub) { $0.tokenCoordinator = coordinator }
            let tasks = start(5, on: rest, Refusal.status401.request) + start(5, on: graph) {
                Refusal.status401.request(10 + $0)
            }
            await refused.waitForArrivals(10)
            refused.open()
            #expect(successes(await results(tasks)).count == 10)
            #expect(stub.refreshes.count == 1)
            #expect(rest.tokenCoordinator === graph.tokenCoordinator)
        }
    }
}
