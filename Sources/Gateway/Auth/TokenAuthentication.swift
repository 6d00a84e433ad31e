import Foundation

/// The auth stage and interceptor of a provider with a token store: it attaches the session's
/// credential (steps 4 and 6) and answers a refused one with a refresh and a replay (step 8).
///
/// A credential is attached only to requests that require authentication and go to the
/// provider's own origin (or one of `Configuration.credentialOrigins`), never to a refresh
/// request. Step 4 waits for a usable credential (a refresh under way, or a renewal of one
/// about to expire); step 6 checks again just before each attempt is sent, so that a retry or
/// a request encoded while a refresh began never carries a replaced token.
struct TokenAuthentication: AuthStage, Interceptor {
    let coordinator: TokenCoordinator
    /// The pipeline refresh requests go through: the provider's, which holds this stage.
    let pipeline: PipelineLink
    /// Origins besides the base URL's that receive the credential.
    let origins: Set<Origin>

    /// Step 4: attaches a usable credential, waiting for one when a refresh is needed.
    func authorize(_ request: PreparedRequest, context: RequestContext) async throws -> PreparedRequest {
        guard request.requiresAuthentication, isEligible(request.url, context) else { return request }
        let credential = try await usableCredential(context)
        var request = request
        request.headers.merge(coordinator.authenticator.headers(for: credential))
        return request
    }

    /// Step 6: makes sure the attempt carries the current credential (waiting when a refresh runs).
    func adapt(_ request: HTTPRequest, context: RequestContext) async throws -> HTTPRequest {
        guard isEligible(request.url, context) else { return request }
        let credential = try await usableCredential(context)
        if coordinator.carries(request.headers, credential) { return request }
        // Renewed since step 4 (a retry, or a refresh that began meanwhile), unless the session ended.
        try await coordinator.checkSession(of: request.headers)
        var request = request
        request.headers.merge(coordinator.authenticator.headers(for: credential))
        return request
    }

    /// Step 8: a refused credential is refreshed (or found already replaced) and the request
    /// replayed; a refresh that fails ends the request with its error.
    func decide(_ response: HTTPResponse, for request: HTTPRequest, context: RequestContext) async throws
        -> Decision
    {
        guard isEligible(request.url, context), response.url.map({ isOwnOrigin($0, context) }) ?? true,
              coordinator.authenticator.isUnauthenticated(response, for: request)
        else { return .continue }
        return try await coordinator.recover(from: response, sent: request, context: context,
                                             pipeline: try pipeline.resolved())
    }

    private func usableCredential(_ context: RequestContext) async throws -> Credential {
        if let ready = coordinator.readyCredential() { return ready }
        return try await coordinator.credential(for: context, pipeline: try pipeline.resolved())
    }

    /// The credential's subject, when the request requires authentication: its responses are
    /// that user's (`nil`, not cached, when the store cannot be read).
    func cachePartition(for request: PreparedRequest) async -> CachePartition? {
        do {
            return CachePartition(subject: try await coordinator.subject())
        } catch {
            return nil
        }
    }

    private func isEligible(_ url: URL, _ context: RequestContext) -> Bool {
        context.requiresAuthentication && !context.isCredentialRefresh && isOwnOrigin(url, context)
    }

    private func isOwnOrigin(_ url: URL, _ context: RequestContext) -> Bool {
        if Origin.isSame(url, as: context.baseURL) { return true }
        guard let origin = Origin(url) else { return false }
        return origins.contains(origin)
    }
}

extension Provider.Configuration {
    /// The coordinator this configuration asks for: `tokenCoordinator`, or a new one over
    /// `tokens`; `nil` when neither is set.
    func makeTokenCoordinator() -> TokenCoordinator? {
        if let tokenCoordinator { return tokenCoordinator }
        guard let tokens else { return nil }
        var observers = authObservers
        if let cache { observers.append(cache) }
        return TokenCoordinator(store: tokens, authenticator: authenticator, options: tokenOptions, clock: clock,
                                observers: observers)
    }
}

/// How the token stage reaches the pipeline that holds it, to send refresh requests through it:
/// a weak reference, so that the two do not keep each other alive.
final class PipelineLink: Sendable {
    private struct Reference {
        weak var pipeline: Pipeline?
    }

    private let reference = Locked(Reference())

    /// Links the stage to `pipeline`, once it exists.
    func attach(_ pipeline: Pipeline) { reference.withLock { $0.pipeline = pipeline } }

    /// The pipeline; a request runs only while its pipeline lives, so it is always there for one.
    ///
    /// - Throws: `CancellationError` when the provider is gone.
    func resolved() throws -> Pipeline {
        guard let pipeline = reference.withLock({ $0.pipeline }) else { throw CancellationError() }
        return pipeline
    }
}
