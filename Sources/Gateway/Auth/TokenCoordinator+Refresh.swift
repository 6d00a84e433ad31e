/// The single-flight refresh: starting it, waiting for it, and settling its waiters.
extension TokenCoordinator {
    /// What a request does next: go on with a credential, or wait for a refresh.
    enum Plan {
        case ready(Credential)
        case wait(RefreshWaiters)
    }

    /// The credential to attach to a request: waits for a refresh under way, and renews a
    /// credential about to expire before handing it out. The wait holds no lock and does not
    /// enter the actor again, so all waiters go on at once when the refresh ends.
    ///
    /// - Throws: `.authentication` (nobody signed in), `.loggedOut`, `.sessionExpired`,
    ///   `.refreshFailed`, `.excessiveRefresh`, the store's error, or `CancellationError`.
    nonisolated func credential(for context: RequestContext, pipeline: Pipeline) async throws -> Credential {
        switch try await planCredential(for: context, pipeline: pipeline) {
        case .ready(let credential): return credential
        case .wait(let waiters): return try await waiters.wait()
        }
    }

    /// What a request whose credential was refused does next: `.replay` once a newer credential
    /// is there (after the refresh this call starts or joins, or at once when the credential
    /// sent was already replaced), or `.fail` with the reason there is none.
    ///
    /// - Throws: `CancellationError` when the request is cancelled while it waits.
    nonisolated func recover(from response: HTTPResponse, sent request: HTTPRequest, context: RequestContext,
                             pipeline: Pipeline) async throws -> Decision {
        do {
            switch try await planRecovery(from: response, sent: request, context: context, pipeline: pipeline) {
            case .ready:
                return .replay
            case .wait(let waiters):
                _ = try await waiters.wait()
                return .replay
            }
        } catch let failure as GatewayError {
            return .fail(failure)
        }
    }

    private func planCredential(for context: RequestContext, pipeline: Pipeline) throws -> Plan {
        try loadIfNeeded()
        if let refresh { return joining(refresh, context) }
        guard let credential = current else { throw ending ?? Self.notSignedInError() }
        guard isDue(credential, renewsEarly: renewsEarly) else { return .ready(credential) }
        let started: Refresh
        do {
            started = try startRefresh(of: credential, refused: nil, context: context, pipeline: pipeline)
        } catch {
            // The guard stops early renewals; the credential itself still works until it expires.
            if credential.isExpired(at: clock.date) { throw error }
            return .ready(credential)
        }
        return joining(started, context)
    }

    /// Checks, before a request goes out with the current credential instead of the one it was
    /// given, that it belongs to the current session.
    ///
    /// - Throws: `.loggedOut` when the session it was given a credential in has ended.
    func checkSession(of headers: HTTPHeaders) throws {
        guard isOfCurrentSession(headers) else { throw Self.loggedOutError() }
    }

    /// - Throws: the `GatewayError` that ends the request.
    private func planRecovery(from response: HTTPResponse, sent request: HTTPRequest, context: RequestContext,
                              pipeline: Pipeline) throws -> Plan {
        try loadIfNeeded()
        guard let credential = current else {
            var failure = ending ?? Self.notSignedInError()
            failure.response = response
            throw failure
        }
        // A request of a session that has ended is not sent again, least of all with another
        // session's credential.
        guard isOfCurrentSession(request.headers) else {
            var failure = Self.loggedOutError()
            failure.response = response
            throw failure
        }
        if let refresh { return joining(refresh, context) }
        // A credential already replaced: replay with the current one, refresh nothing.
        guard carries(request.headers, credential) else { return .ready(credential) }
        guard authenticator.canRefresh(credential) else { throw Self.cannotRefreshError(response) }
        let started = try startRefresh(of: credential, refused: response, context: context, pipeline: pipeline)
        return joining(started, context)
    }

    /// Joins a refresh: a `blocker` request lets it skip the queue, since it holds the queue's
    /// blocker place itself.
    private func joining(_ refresh: Refresh, _ context: RequestContext) -> Plan {
        if context.priority == .blocker { refresh.scope.bypassQueue() }
        return .wait(refresh.waiters)
    }

    /// Starts a refresh of `credential` and stores it before anything is awaited. The store is
    /// emptied first: from now on the server may spend the refresh token (see
    /// `withdrawStoredCredential()`).
    ///
    /// - Parameter response: the refusal that calls for it; `nil` for a proactive refresh.
    /// - Returns: the refresh, to wait for it.
    /// - Throws: `.excessiveRefresh` (with `response`) when the guard allows no more refreshes now;
    ///   `.tokenStore` (with `response`) when the store could not be emptied.
    private func startRefresh(of credential: Credential, refused response: HTTPResponse?, context: RequestContext,
                              pipeline: Pipeline) throws -> Refresh {
        let now = clock.now
        refreshStarts.removeAll { now - $0 >= options.refreshLimitInterval }
        guard refreshStarts.count < options.maxRefreshes else {
            throw Self.excessiveRefreshError(count: refreshStarts.count, options: options, response: response)
        }
        do {
            try withdrawStoredCredential()
        } catch var failure as GatewayError {
            failure.response = failure.response ?? response
            throw failure
        }
        refreshStarts.append(now)
        nextID += 1
        let id = nextID
        let scope = RefreshScope()
        var started = Refresh(id: id, credential: credential, scope: scope, waiters: RefreshWaiters(gauge: gauge))
        for observer in observers { observer.refreshStarted(subject: credential.subject, proactive: response == nil) }
        let authenticator = authenticator
        let client = RefreshClient(pipeline: pipeline, scope: scope)
        let task = Task {
            let result: Result<Credential, any Error>
            do {
                result = .success(try await authenticator.refresh(credential, using: client))
            } catch {
                result = .failure(error)
            }
            self.finishRefresh(id, result)
        }
        // Stored before anything is awaited: the task runs on this actor once this call returns.
        started.task = task
        refresh = started
        latestRefreshTask = task
        publish()
        return started
    }

    /// Settles a refresh. The store is brought up to date, and observers are told, before any
    /// waiter goes on, so that a request that has finished never leaves a spent refresh token
    /// behind it (nor an event not yet heard):
    ///
    /// - success: the new credential is saved, then handed to every waiter;
    /// - refusal: the store is cleared, then every waiter fails with `.sessionExpired`;
    /// - a passing failure: the old credential goes back into the store when the failure shows
    ///   the server did not spend its refresh token (see `refreshTokenIsUnspent(after:)`), then
    ///   every waiter fails with `.refreshFailed`.
    ///
    /// A refresh that logout or `save` superseded changes nothing.
    private func finishRefresh(_ id: UInt64, _ result: Result<Credential, any Error>) {
        guard let finished = refresh, finished.id == id else { return }
        refresh = nil
        switch result {
        case .success(let renewed):
            persist("the renewed credential could not be saved") { try $0.save(renewed) }
            replace(with: renewed, renewsEarly: !isDue(renewed, renewsEarly: true), newSession: false)
            ending = nil
            publish()
            for observer in observers { observer.refreshSucceeded(subject: renewed.subject) }
            finished.waiters.settle(.success(renewed))
        case .failure(let error):
            let subject = current?.subject
            let rejected = !error.isCancellation
                && ((error as? GatewayError)?.kind == .sessionExpired || authenticator.isRejection(error))
            let failure = rejected ? Self.sessionExpiredError(error) : Self.refreshFailedError(error)
            if rejected {
                persist("the credential could not be removed after the refused refresh") { try $0.clear() }
                replace(with: nil, renewsEarly: true, newSession: true)
                ending = failure
            } else if Self.refreshTokenIsUnspent(after: error) {
                persist("the credential could not be put back after the failed refresh") {
                    try $0.save(finished.credential)
                }
            }
            publish()
            if rejected {
                for observer in observers { observer.sessionExpired(subject: subject, error: failure) }
            } else {
                for observer in observers { observer.refreshFailed(failure) }
            }
            finished.waiters.settle(.failure(failure))
        }
    }
}
