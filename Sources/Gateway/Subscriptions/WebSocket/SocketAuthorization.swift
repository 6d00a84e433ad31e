import Foundation

/// Where a subscription socket's `connection_init` gets its credential, and how the credential
/// is renewed after the server refuses it (`4401`, `4403`).
struct SocketAuthorization: Sendable {
    /// The credential to send; `nil` when there is none to send.
    let credential: @Sendable () async throws -> Credential?
    /// A newer credential after `refused` was refused.
    let renew: @Sendable (_ refused: Credential?, _ close: WebSocketClose) async throws -> Credential?

    /// No credentials: a refusal cannot be answered with a refresh.
    static let none = SocketAuthorization(credential: { nil }, renew: { _, close in
        throw GatewayError(.authentication,
                           "the server closed the subscription socket with \(close) and there is no credential to renew",
                           fix: "give the client a provider with a token store (`Configuration.tokens`)")
    })

    /// The session of a provider's pipeline, through its token coordinator; `.none` when the
    /// provider has no token store.
    ///
    /// - Parameters:
    ///   - pipeline: the provider's pipeline, which sends the refresh requests.
    ///   - owner: kept alive by the closures: the `Provider` when the client is the caller's
    ///     (a provider that is gone stops its pipeline, refreshes included); `nil` when the
    ///     provider owns the client, which would otherwise keep itself.
    ///   - url: the socket's URL, which a refusal is recorded against.
    static func session(of pipeline: Pipeline, keeping owner: (any Sendable & AnyObject)?, url: URL)
        -> SocketAuthorization {
        guard let coordinator = pipeline.tokens else { return .none }
        return SocketAuthorization(
            credential: {
                withExtendedLifetime(owner) {}
                return try await coordinator.socketCredential(pipeline: pipeline)
            },
            renew: { refused, _ in
                withExtendedLifetime(owner) {}
                guard let refused else { return try await coordinator.socketCredential(pipeline: pipeline) }
                return try await coordinator.renew(refusedOnSocket: refused, url: url, pipeline: pipeline)
            }
        )
    }
}

extension TokenCoordinator {
    /// The credential a subscription socket sends: waits for a refresh under way and renews
    /// a credential about to expire, as for a request.
    ///
    /// - Throws: as `credential(for:pipeline:)`: `.authentication` when nobody is signed in,
    ///   `.loggedOut`, `.sessionExpired`, `.refreshFailed`, `.excessiveRefresh`.
    nonisolated func socketCredential(pipeline: Pipeline) async throws -> Credential {
        try await credential(for: Self.socketContext(pipeline), pipeline: pipeline)
    }

    /// Renews `refused` after a subscription socket was closed for it, through the same single
    /// flight as a request's `401`: a credential already replaced is not refreshed again, and
    /// the refresh guard counts this refresh.
    ///
    /// - Returns: the credential to send on the next socket.
    /// - Throws: the `GatewayError` that ends the session or the refresh (`.sessionExpired`,
    ///   `.refreshFailed`, `.excessiveRefresh`, `.loggedOut`, …), or `CancellationError`.
    nonisolated func renew(refusedOnSocket refused: Credential, url: URL, pipeline: Pipeline) async throws
        -> Credential {
        let context = Self.socketContext(pipeline)
        let request = HTTPRequest(method: .get, url: url, headers: authenticator.headers(for: refused))
        let refusal = HTTPResponse(status: 401, url: url)
        switch try await recover(from: refusal, sent: request, context: context, pipeline: pipeline) {
        case .fail(var failure):
            failure.response = nil
            throw failure
        case .continue, .retry, .replay, .done:
            return try await credential(for: context, pipeline: pipeline)
        }
    }

    private static func socketContext(_ pipeline: Pipeline) -> RequestContext {
        RequestContext(id: pipeline.inFlight.next().id, name: "subscription socket", baseURL: pipeline.baseURL)
    }
}
