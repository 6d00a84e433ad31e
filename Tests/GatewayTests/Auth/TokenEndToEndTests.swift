import Foundation
@testable import Gateway
import GatewayTesting
import Testing

extension TokenTests {
    /// Issue 7 end to end: `URLSessionTransport` against a loopback backend that issues tokens,
    /// accepts each refresh token once and refuses unknown access tokens.
    @Suite(.timeLimit(.minutes(2))) struct TokenEndToEndTests {
        @Test(arguments: Refusal.allCases)
        func oneHundredRefusedRequestsCauseOneRefreshOverTheNetwork(refusal: Refusal) async throws {
            let backend = TokenBackend(refusal: refusal, holdRefusalsUntil: 100)
            let server = try LoopbackServer { await backend.handle($0) }
            defer { server.shutdown() }
            let provider = try Self.provider(server, store: MemoryTokenStore(oldCredential))

            let responses = successes(await results(start(100, on: provider, refusal.request)))

            #expect(responses.count == 100)
            #expect(backend.refreshTokensSeen == ["rt-1"])
            #expect(responses.allSatisfy { $0.metrics.authReplays == 1 })
            #expect(Set(responses.compactMap { $0.request.headers["Authorization"] }) == ["Bearer at-1"])
            let received = server.requests
            let refreshIndex = try #require(received.firstIndex { $0.path.hasSuffix("/auth/refresh") })
            #expect(received[refreshIndex...].filter { $0.headers["Authorization"] == "Bearer old" }.isEmpty)
            #expect(received.filter { $0.headers["Authorization"] == "Bearer old" }.count == 100)
            #expect(received.filter { $0.headers["Authorization"] == "Bearer at-1" }.count == 100)
        }

        @Test(arguments: Refusal.allCases)
        func aServerThatAcceptsEachRefreshTokenOnceSeesEachExactlyOnce(refusal: Refusal) async throws {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let backend = TokenBackend(refusal: refusal, holdRefusalsUntil: 0)
            let server = try LoopbackServer { await backend.handle($0) }
            defer { server.shutdown() }
            let store = FileTokenStore(directory: folder.url.appendingPathComponent("tokens"))
            try store.save(oldCredential)
            let provider = try Self.provider(server, store: store) {
                $0.tokenOptions = TokenCoordinator.Options(maxRefreshes: 100)
            }

            let rounds = 5
            for round in 0..<rounds {
                backend.expireAccessTokens()
                let responses = successes(await results(start(10, on: provider) { refusal.request(round * 100 + $0) }))
                #expect(responses.count == 10)
            }

            let seen = backend.refreshTokensSeen
            #expect(seen == ["rt-1"] + (1..<rounds).map { "rt-n\($0)" })
            #expect(Set(seen).count == seen.count)
            #expect(backend.refusedRefreshes == 0)
            let stored = try #require(try store.load())
            #expect(stored.refreshToken == "rt-n\(rounds)")
            #expect(stored.accessToken == "at-\(rounds)")
            #expect(stored.subject == "user-1")
        }

        static func provider(
            _ server: LoopbackServer, store: any TokenStore,
            configure: (inout Provider.Configuration) -> Void = { _ in }
        ) throws -> Provider {
            let transport = URLSessionTransport(
                configuration: URLSessionTransport.Configuration(maxConnectionsPerHost: 128))
            return tokenProvider(transport, store: store, cap: 128, baseURL: try server.url("/api/")) { config in
                config.timeout = .seconds(30)
                config.deadline = .seconds(60)
                configure(&config)
            }
        }
    }
}

/// A token-issuing backend: access tokens `at-N` and refresh tokens `rt-nN`, each refresh token
/// accepted once. It knows the refresh token `rt-1` and no access token to begin with, so the
/// `old` token clients start with is refused.
final class TokenBackend: Sendable {
    private struct State {
        var access: Set<String> = []
        var refresh: Set<String> = ["rt-1"]
        var issued = 0
        var refreshTokensSeen: [String] = []
        var refusedRefreshes = 0
        var refusals = 0
    }

    let refusal: Refusal
    /// Refusals are held until this many have arrived (0: answered at once).
    let holdRefusalsUntil: Int
    private let state = Locked(State())
    private let refusalsArrived = LoopbackGate()

    init(refusal: Refusal, holdRefusalsUntil: Int) {
        self.refusal = refusal
        self.holdRefusalsUntil = holdRefusalsUntil
    }

    /// Every refresh token presented, in order.
    var refreshTokensSeen: [String] { state.withLock { $0.refreshTokensSeen } }
    /// How many refreshes were refused (a refresh token presented twice, or unknown).
    var refusedRefreshes: Int { state.withLock { $0.refusedRefreshes } }

    /// Forgets every access token issued so far: the next requests are refused.
    func expireAccessTokens() { state.withLock { $0.access.removeAll() } }

    func handle(_ request: LoopbackRequest) async -> LoopbackResponse {
        if request.path.hasSuffix("/auth/refresh") { return refresh(request) }
        let token = request.headers["Authorization"].map { String($0.dropFirst("Bearer ".count)) } ?? ""
        let (valid, arrived) = state.withLock { state -> (Bool, Int) in
            if state.access.contains(token) { return (true, 0) }
            state.refusals += 1
            return (false, state.refusals)
        }
        if valid {
            return refusal == .status401 ? .json(#"{"id":1}"#) : .json(#"{"data":{"item":{"id":"1"}}}"#)
        }
        if holdRefusalsUntil > 0 {
            if arrived >= holdRefusalsUntil { refusalsArrived.open() }
            await refusalsArrived.wait()
        }
        switch refusal {
        case .status401:
            return .json(#"{"error":"invalid_token"}"#, status: 401, headers: ["WWW-Authenticate": "Bearer"])
        case .graphQL:
            return .json(#"{"data":null,"errors":[{"message":"sign in","extensions":{"code":"UNAUTHENTICATED"}}]}"#)
        }
    }

    private func refresh(_ request: LoopbackRequest) -> LoopbackResponse {
        let presented = (try? JSONSerialization.jsonObject(with: request.body) as? [String: String])?["refresh_token"]
        let issued = state.withLock { state -> Int? in
            state.refreshTokensSeen.append(presented ?? "")
            guard let presented, state.refresh.remove(presented) != nil else {
                state.refusedRefreshes += 1
                return nil
            }
            state.issued += 1
            state.access.insert("at-\(state.issued)")
            state.refresh.insert("rt-n\(state.issued)")
            return state.issued
        }
        guard let issued else { return .json(#"{"error":"invalid_grant"}"#, status: 400) }
        return .json(#"{"access_token":"at-\#(issued)","refresh_token":"rt-n\#(issued)","expires_in":3600}"#)
    }
}
