import Foundation
@testable import Gateway
import GatewayTesting
import Testing

extension TokenTests {
    /// Signing in through the provider: an endpoint sent without a token, whose refusal is the
    /// caller's error, and an answer that becomes the session's credential.
    @Suite(.timeLimit(.minutes(1))) struct SignInTests {
        struct Login: Encodable, Sendable {
            var username: String
            var password: String
        }

        struct OAuthError: Decodable, Sendable, Equatable {
            var error: String
            var error_description: String?
        }

        private static let signIn = Endpoint<OAuthTokenResponse>.post(
            "auth/login", body: Login(username: "ada", password: "secret")).withoutAuthentication()

        @Test func anEndpointWithoutAuthenticationCarriesNoToken() {
            #expect(!Self.signIn.requiresAuthentication)
            #expect(Endpoint<Empty>.get("items").requiresAuthentication)
        }

        @Test(arguments: [true, false])
        func aRefusedSignInIsTheCallersErrorWithTheServersAnswerAndRefreshesNothing(signedIn: Bool) async throws {
            let stub = StubTransport()
                .on(.post, "auth/login", reply: .json(
                    #"{"error":"invalid_grant","error_description":"wrong password"}"#, status: 401))
                .on(.post, "auth/refresh", reply: tokens("new", refresh: "rt-2"))
            let store = MemoryTokenStore(signedIn ? oldCredential : nil)
            let log = AuthEventLog()
            let provider = tokenProvider(stub, store: store) { $0.authObservers = [log] }

            let error = try await #require(throws: GatewayError.self) {
                try await provider.send(Self.signIn.apiError(OAuthError.self))
            }
            #expect(error.kind == .status)
            #expect(error.status == 401)
            #expect(error.apiError(as: OAuthError.self)
                == OAuthError(error: "invalid_grant", error_description: "wrong password"))
            #expect(error.response.map { String(decoding: $0.body, as: UTF8.self) }?.contains("wrong password") == true)
            #expect(stub.refreshes.isEmpty)
            #expect(stub.requests.map(\.bearer) == [nil])
            #expect(log.names.isEmpty)
            #expect(store.load() == (signedIn ? oldCredential : nil))
        }

        @Test func theAnswerBecomesTheSessionsCredential() async throws {
            let clock = FrozenClock()
            let stub = StubTransport()
                .on(.post, "auth/login", reply: .json(
                    #"{"access_token":"at-1","token_type":"bearer","expires_in":"3600","refresh_token":"rt-1"}"#))
                .on(token: "at-1", .get, "items", reply: .json("{}"))
            let store = MemoryTokenStore()
            let provider = tokenProvider(stub, store: store, clock: clock)

            let answer = try await provider.value(Self.signIn)
            let coordinator = try #require(provider.tokenCoordinator)
            try await coordinator.save(answer.credential(subject: "ada", now: clock.date))
            let response = try await provider.send(Endpoint<Empty>.get("items"))

            #expect(response.request.headers["Authorization"] == "Bearer at-1")
            #expect(store.load() == Credential(accessToken: "at-1", refreshToken: "rt-1",
                                               expiresAt: clock.date.addingTimeInterval(3600), subject: "ada"))
            let login = try #require(stub.requests.first)
            #expect(login.bearer == nil)
            #expect(login.bodyText == #"{"password":"secret","username":"ada"}"#
                || login.bodyText == #"{"username":"ada","password":"secret"}"#)
        }

        @Test func aSignInSentWhileASessionIsActiveDoesNotCarryItsToken() async throws {
            let stub = StubTransport()
                .on(.post, "auth/login", reply: .json(#"{"access_token":"at-2"}"#))
            let provider = tokenProvider(stub, store: MemoryTokenStore(oldCredential))
            let answer = try await provider.value(Self.signIn)
            #expect(answer.accessToken == "at-2")
            #expect(stub.requests.map(\.bearer) == [nil])
        }
    }
}
