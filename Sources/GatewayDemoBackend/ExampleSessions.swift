import Foundation

/// The example backend's issued tokens, kept behind a lock by `ExampleBackend`.
///
/// Access tokens live `ExampleBackend.tokenLifetime`; refresh tokens are accepted once each
/// (rotation). Expiry is judged on the backend's own clock, which the demo can move forward
/// (`ExampleBackend.expireAccessTokens()`): nothing sleeps to wait for a token to expire.
struct ExampleSessions: Sendable {
    struct AccessToken: Sendable {
        var subject: String
        var expires: ContinuousClock.Instant
    }

    /// Who a request's `Authorization` header says is asking.
    enum Caller: Sendable, Equatable {
        /// No `Authorization` header.
        case anonymous
        /// A live access token of this subject.
        case signedIn(String)
        /// A token that is not accepted: `code` (`invalid_token`, `token_expired`) and why.
        case refused(code: String, message: String)
    }

    var access: [String: AccessToken] = [:]
    var refresh: [String: String] = [:]
    /// Successful logins.
    var loginCount = 0
    /// Successful refreshes.
    var refreshCount = 0
    /// How far the backend's clock is ahead of the real one.
    var clockOffset: Duration = .zero

    /// The backend's clock: the real one moved forward by `clockOffset`.
    var now: ContinuousClock.Instant { ContinuousClock.now + clockOffset }

    /// Who sent `authorization` (the `Authorization` header's value, if any).
    func caller(authorization: String?) -> Caller {
        guard let header = authorization else { return .anonymous }
        guard header.lowercased().hasPrefix("bearer ") else {
            return .refused(code: "invalid_token", message: "send the access token as Authorization: Bearer <token>")
        }
        let token = String(header.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        guard let session = access[token] else {
            return .refused(code: "invalid_token", message: "the access token is not one this server issued")
        }
        guard now < session.expires else {
            return .refused(code: "token_expired", message: "the access token has expired; refresh it")
        }
        return .signedIn(session.subject)
    }

    /// Moves the clock past the expiry of every access token issued so far, so that each is
    /// refused from now on; tokens issued later live their full lifetime.
    ///
    /// - Returns: how many access tokens were live before.
    mutating func expireAccessTokens() -> Int {
        let current = now
        let live = access.values.filter { $0.expires > current }
        guard let latest = live.map(\.expires).max() else { return 0 }
        clockOffset += (latest - current) + .seconds(1)
        return live.count
    }
}
