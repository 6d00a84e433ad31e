import Foundation
import Gateway
import GatewayLoopback

/// The example music backend, run in-process on 127.0.0.1 for `gateway demo`.
///
/// Its REST side (the GraphQL side joins it later):
/// - `POST /auth/login` with JSON `{username, password}` → `{access_token, refresh_token,
///   expires_in, subject}`; 401 `invalid_credentials` for anything but the demo account.
/// - `POST /auth/refresh` with JSON `{refresh_token}` → a new session; each refresh token is
///   accepted once (rotation), then 401 `invalid_grant`.
/// - `GET /tracks/{id}` → a track; 404 `not_found` for an unknown id.
/// - `GET /tracks/{id}/stream` → `{url, expires_in}`; needs `Authorization: Bearer` with a live
///   access token, 401 `unauthorized` (no token), `invalid_token` or `token_expired` otherwise.
/// - `GET /search?q=…&kinds[]=…&first=…` → `{query, kinds, results}`; 400 without `q` or with an
///   unknown kind.
///
/// Every error answer has the body `{"error": {"code", "message"}}` (`ExampleAPI.ErrorBody`).
final class ExampleBackend: Sendable {
    /// The one account the backend knows.
    static let username = "demo"
    /// Its password.
    static let password = "demo-password"
    /// The account id sessions carry.
    static let subject = "listener-1"

    /// Issued tokens; tokens are random and never printed.
    struct Sessions: Sendable {
        var access: [String: (subject: String, expires: ContinuousClock.Instant)] = [:]
        var refresh: [String: String] = [:]
        var refreshCount = 0
    }

    let catalog: ExampleCatalog
    let tokenLifetime: Duration
    let sessions = Locked(Sessions())
    private let server: LoopbackServer

    /// Starts the backend on a free port of 127.0.0.1.
    ///
    /// - Parameters:
    ///   - catalog: the tracks, artists and releases it serves.
    ///   - tokenLifetime: how long an access token lives.
    /// - Throws: `LoopbackServerError` when no port could be bound.
    init(catalog: ExampleCatalog = .standard, tokenLifetime: Duration = .seconds(3600)) throws {
        self.catalog = catalog
        self.tokenLifetime = tokenLifetime
        let routes = ExampleRoutes(catalog: catalog, tokenLifetime: tokenLifetime, sessions: sessions)
        server = try LoopbackServer(router: routes.router)
    }

    /// `http://127.0.0.1:PORT/`.
    var baseURL: URL { server.baseURL }

    /// Every request the backend received, in order.
    var requests: [LoopbackRequest] { server.requests }

    /// How many refreshes succeeded.
    var refreshCount: Int { sessions.withLock { $0.refreshCount } }

    /// Stops the server. Idempotent.
    func shutdown() { server.shutdown() }
}
