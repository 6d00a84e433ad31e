import Foundation
import Gateway
import GatewayLoopback

/// The example music backend of `Schemas/music.graphql`, run in-process on 127.0.0.1 for
/// `gateway demo` and the tests.
///
/// REST (`ExampleRoutes`), every error answered as `{"error": {"code", "message"}}`:
/// - `POST /auth/login` with JSON `{username, password}` → `{access_token, refresh_token,
///   expires_in, subject}`; 401 `invalid_credentials` for anything but the demo account.
/// - `POST /auth/refresh` with JSON `{refresh_token}` → a new session; each refresh token is
///   accepted once (rotation), then 401 `invalid_grant`. Successful refreshes are counted.
/// - `GET /me` → the listener's profile; needs a live access token.
/// - `GET /tracks/{id}` → a track; 404 `not_found` for an unknown id.
/// - `GET /tracks/{id}/stream` → `{url, expires_in}`; needs `Authorization: Bearer` with a live
///   access token, 401 `unauthorized` (no token), `invalid_token` or `token_expired` otherwise.
/// - `GET /search?q=…&kinds[]=…&first=…` → `{query, kinds, results}`.
///
/// GraphQL (`ExampleGraphQLEndpoint`): `POST /graphql` (JSON or a multipart upload) and
/// `GET /graphql`, answering every operation of `Queries/` from the same catalog; an expired or
/// unknown token gets a 200 whose error has `extensions.code: "UNAUTHENTICATED"`.
///
/// Access tokens expire on the backend's own clock, which `expireAccessTokens()` moves forward:
/// the demo makes its token expire without waiting.
package final class ExampleBackend: Sendable {
    /// The one account the backend knows.
    package static let username = "demo"
    /// Its password.
    package static let password = "demo-password"
    /// The account id sessions carry (the listener's id).
    package static let subject = "listener-1"

    let tokenLifetime: Duration
    let catalog: Locked<ExampleCatalog>
    let sessions = Locked(ExampleSessions())
    private let server: LoopbackServer

    /// Starts the backend on a free port of 127.0.0.1.
    ///
    /// - Parameters:
    ///   - schema: the example API's schema, read from `Schemas/music.graphql`.
    ///   - catalog: the data it starts with.
    ///   - tokenLifetime: how long an access token lives: 5 minutes, short as real services make them.
    /// - Throws: `LoopbackServerError` when no port could be bound.
    package init(schema: ExampleGraphQLSchema, catalog: ExampleCatalog = .standard,
         tokenLifetime: Duration = .seconds(300)) throws {
        self.catalog = Locked(catalog)
        self.tokenLifetime = tokenLifetime
        let graphQL = ExampleGraphQLEndpoint(schema: schema, catalog: self.catalog, sessions: sessions)
        let routes = ExampleRoutes(catalog: self.catalog, tokenLifetime: tokenLifetime, sessions: sessions)
        var router = routes.router
        router.route("POST", "/graphql") { graphQL.handle($0) }
        router.route("GET", "/graphql") { graphQL.handle($0) }
        server = try LoopbackServer(router: router)
    }

    /// `http://127.0.0.1:PORT/`.
    package var baseURL: URL { server.baseURL }

    /// Every request the backend received, in order.
    var requests: [LoopbackRequest] { server.requests }

    /// How many refreshes succeeded.
    package var refreshCount: Int { sessions.withLock { $0.refreshCount } }

    /// How many logins succeeded.
    var loginCount: Int { sessions.withLock { $0.loginCount } }

    /// Moves the backend's clock past the expiry of every access token issued so far: from now
    /// on each is refused (REST 401 `token_expired`, GraphQL `UNAUTHENTICATED`) until refreshed.
    ///
    /// - Returns: how many access tokens were live.
    @discardableResult
    package func expireAccessTokens() -> Int { sessions.withLock { $0.expireAccessTokens() } }

    /// Stops the server. Idempotent.
    package func shutdown() { server.shutdown() }
}
