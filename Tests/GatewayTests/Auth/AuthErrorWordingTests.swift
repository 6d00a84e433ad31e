import Foundation
@testable import Gateway
import GatewayTesting
import Testing

extension TokenTests {
    /// The auth errors say each thing once: the kind opens the description, and the message goes
    /// on from it instead of repeating it ("session expired: the session expired").
    @Suite struct AuthErrorWordingTests {
        private static let refused = HTTPResponse(status: 400, body: Data(#"{"error":"invalid_grant"}"#.utf8))

        /// Every error the coordinator and the authenticators word, by a name for the test's output.
        private static let errors: [(String, GatewayError)] = [
            ("not signed in", TokenCoordinator.notSignedInError()),
            ("logged out", TokenCoordinator.loggedOutError()),
            ("refused refresh", TokenCoordinator.sessionExpiredError(
                GatewayError(.status, "HTTP 400 is not an accepted status", response: refused))),
            ("no refresh token", TokenCoordinator.sessionExpiredError(
                GatewayError(.sessionExpired, "the credential has no refresh token", fix: "sign in again"))),
            ("refresh answered 500", TokenCoordinator.refreshFailedError(
                GatewayError(.status, "HTTP 500", response: HTTPResponse(status: 500)))),
            ("refresh transport", TokenCoordinator.refreshFailedError(GatewayError(.transport, "no connection"))),
            ("refresh invalid response",
             TokenCoordinator.refreshFailedError(GatewayError(.invalidResponse, "not JSON"))),
            ("refresh cancelled", TokenCoordinator.refreshFailedError(CancellationError())),
            ("excessive refresh", TokenCoordinator.excessiveRefreshError(
                count: 5, options: TokenCoordinator.Options(), response: refused)),
            ("cannot refresh", TokenCoordinator.cannotRefreshError(refused)),
            ("store failed", TokenCoordinator.tokenStoreError(
                StoreBroken(), "the renewed credential could not be saved", fix: "check the token store")),
        ]

        @Test func noMessageRepeatsItsKind() {
            for (name, error) in Self.errors {
                let message = error.message.lowercased()
                #expect(!message.contains(error.kind.rawValue), "\(name): \(error.description)")
                #expect(Self.repeatedWords(in: error.description).isEmpty, "\(name): \(error.description)")
                #expect(error.description.components(separatedBy: "Fix:").count <= 2, "\(name): \(error.description)")
            }
        }

        @Test func aRefusedRefreshSaysOnceThatTheSessionExpired() async throws {
            let stub = StubTransport()
                .on(token: "old", .get, "items", reply: .status(401))
                .on(.post, "auth/refresh", reply: .json(#"{"error":"invalid_grant"}"#, status: 400))
            let error = try #require(await failure(of: tokenProvider(stub, store: MemoryTokenStore(oldCredential))))
            #expect(error.description.hasPrefix("session expired: the server refused to renew the credential"))
            #expect(error.description.components(separatedBy: "session expired").count == 2, "\(error.description)")
        }

        @Test func anAuthenticatorsOwnSessionExpiredErrorIsKeptAsItIs() {
            let expired = TokenCoordinator.sessionExpiredError(
                GatewayError(.sessionExpired, "the credential has no refresh token", fix: "sign in again"))
            #expect(expired.description == "session expired: the credential has no refresh token. Fix: sign in again")
        }

        /// Words that follow themselves ("the the").
        private static func repeatedWords(in text: String) -> [String] {
            let words = text.lowercased().split { !$0.isLetter && !$0.isNumber }
            return zip(words, words.dropFirst()).filter { $0 == $1 }.map { String($0.0) }
        }
    }
}
