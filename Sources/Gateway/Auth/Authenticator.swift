/// How a session is renewed, how its credential travels, and which responses mean it was refused.
///
/// The `TokenCoordinator` calls `refresh` at most once at a time per session, from a task of its
/// own; every request that needs a token waits for it. Send the refresh request through the
/// `RefreshClient` given: it goes through the provider's pipeline (observers, logging, metrics)
/// as a `blocker`, without passing the auth stage, so it can never wait for itself. (A request
/// sent through the provider itself is an ordinary one: it would wait for the refresh it is
/// part of until its deadline.)
///
/// Only `refresh` must be written; the rest have defaults (`Authorization: Bearer <access
/// token>`, HTTP 401 or a GraphQL `UNAUTHENTICATED` error, a refused refresh when it answers 400,
/// 401 or 403):
/// ```swift
/// struct MyAuthenticator: Authenticator {
///     func refresh(_ credential: Credential, using client: RefreshClient) async throws -> Credential {
///         guard let token = credential.refreshToken else { throw MyError.noRefreshToken }
///         let session = try await client.value(Endpoint<Session>.post("auth/refresh", body: ["refresh_token": token]))
///         return Credential(accessToken: session.accessToken, refreshToken: session.refreshToken,
///                           expiresIn: .seconds(session.expiresIn), subject: credential.subject, now: client.date)
///     }
/// }
/// ```
/// `RefreshTokenAuthenticator` is this for the usual OAuth-style endpoint.
public protocol Authenticator: Sendable {
    /// Renews `credential`, returning the new one (with the new refresh token when the server
    /// rotates them; the old one is never sent again).
    ///
    /// - Parameters:
    ///   - credential: the credential to renew.
    ///   - client: sends the refresh request through the provider, skipping the auth stage.
    /// - Throws: any error; one for which `isRejection(_:)` holds ends the session.
    func refresh(_ credential: Credential, using client: RefreshClient) async throws -> Credential

    /// Whether `credential` can be refreshed at all; by default, when it has a refresh token.
    /// A credential that cannot be refreshed is used until it is refused.
    func canRefresh(_ credential: Credential) -> Bool

    /// The header fields that carry `credential`: `Authorization: Bearer <access token>` by default.
    func headers(for credential: Credential) -> HTTPHeaders

    /// Whether `response` means the credential sent with `request` was refused:
    /// `UnauthenticatedPredicate.standard` by default (HTTP 401, or a GraphQL error with
    /// `extensions.code == "UNAUTHENTICATED"`).
    func isUnauthenticated(_ response: HTTPResponse, for request: HTTPRequest) -> Bool

    /// Whether an error thrown by `refresh` means the server refused to renew the session (it
    /// is over: the credential is removed and `sessionExpired` is reported) rather than a
    /// passing failure. By default: a `GatewayError` with a response of status 400, 401 or 403.
    func isRejection(_ error: any Error) -> Bool
}

extension Authenticator {
    /// When the credential has a refresh token.
    public func canRefresh(_ credential: Credential) -> Bool { credential.refreshToken != nil }

    /// `Authorization: Bearer <access token>`.
    public func headers(for credential: Credential) -> HTTPHeaders {
        ["Authorization": "Bearer " + credential.accessToken]
    }

    /// HTTP 401, or a GraphQL error with `extensions.code == "UNAUTHENTICATED"`.
    public func isUnauthenticated(_ response: HTTPResponse, for request: HTTPRequest) -> Bool {
        UnauthenticatedPredicate.standard.matches(response, for: request)
    }

    /// A `GatewayError` whose response has status 400, 401 or 403.
    public func isRejection(_ error: any Error) -> Bool {
        guard let status = (error as? GatewayError)?.response?.status else { return false }
        return status == 400 || status == 401 || status == 403
    }
}

/// The authenticator of a provider that has none: credentials are attached, never refreshed.
/// A refused credential fails its request with a `GatewayError` of kind `.authentication`.
public struct NonRefreshingAuthenticator: Authenticator {
    /// Creates the authenticator.
    public init() {}

    /// Never: there is no way to refresh.
    public func canRefresh(_ credential: Credential) -> Bool { false }

    /// Fails: there is no way to refresh.
    public func refresh(_ credential: Credential, using client: RefreshClient) async throws -> Credential {
        throw GatewayError(.authentication, "the credential cannot be refreshed: no authenticator is configured",
                           fix: "set Configuration.authenticator")
    }
}

/// An authenticator whose refresh is a closure; everything else takes the defaults.
///
/// ```swift
/// config.authenticator = .refresh { credential, client in
///     let body = ["refresh_token": credential.refreshToken]
///     let session = try await client.value(Endpoint<Session>.post("auth/refresh", body: body))
///     return Credential(accessToken: session.accessToken, refreshToken: session.refreshToken)
/// }
/// ```
public struct ClosureAuthenticator: Authenticator {
    private let body: @Sendable (Credential, RefreshClient) async throws -> Credential

    /// Creates an authenticator that refreshes with `refresh`.
    public init(refresh: @escaping @Sendable (Credential, RefreshClient) async throws -> Credential) {
        body = refresh
    }

    /// Runs the closure.
    @concurrent public func refresh(_ credential: Credential, using client: RefreshClient) async throws -> Credential {
        try await body(credential, client)
    }
}

extension Authenticator where Self == ClosureAuthenticator {
    /// An authenticator that refreshes with `body`.
    public static func refresh(
        _ body: @escaping @Sendable (Credential, RefreshClient) async throws -> Credential
    ) -> ClosureAuthenticator {
        ClosureAuthenticator(refresh: body)
    }
}

extension Authenticator where Self == NonRefreshingAuthenticator {
    /// Attaches credentials and never refreshes them.
    public static var nonRefreshing: NonRefreshingAuthenticator { NonRefreshingAuthenticator() }
}
