/// The single-flight refresh: starting it, waiting for it, and settling its waiters.
extension TokenCoordinator {
    /// The credential to attach to a request: waits for a refresh under way, and renews a
    /// credential about to expire before handing it out.
    ///
    /// - Throws: `.authentication` (nobody signed in), `.loggedOut`, `.sessionExpired`,
    ///   `.refreshFailed`, `.excessiveRefresh`, the store's error, or `CancellationError`.
    func credential(for context: RequestContext, pipeline: Pipeline) async throws -> Credential {
        try loadIfNeeded()
        if let refresh { return try await wait(for: refresh.id, context) }
        guard let credential = current else { throw ending ?? Self.notSignedInError() }
        guard isDue(credential, renewsEarly: renewsEarly) else { return credential }
        let id: UInt64
        do {
            id = try startRefresh(of: credential, refused: nil, context: context, pipeline: pipeline)
        } catch let error as GatewayError where error.kind == .excessiveRefresh && !credential.isExpired(at: clock.date) {
            // The guard stops early renewals; the credential itself still works.
            return credential
        }
        return try await wait(for: id, context)
    }

    /// What a request whose credential was refused does next: `.replay` once a newer credential
    /// is there (after the refresh this call starts or joins, or at once when the credential
    /// sent was already replaced), or `.fail` with the reason there is none.
    ///
    /// - Throws: `CancellationError` when the request is cancelled while it waits.
    func recover(from response: HTTPResponse, sent request: HTTPRequest, context: RequestContext,
                 pipeline: Pipeline) async throws -> Decision {
        do {
            try loadIfNeeded()
            guard let credential = current else {
                var failure = ending ?? Self.notSignedInError()
                failure.response = response
                return .fail(failure)
            }
            if let refresh {
                _ = try await wait(for: refresh.id, context)
                return .replay
            }
            // A credential already replaced: replay with the current one, refresh nothing.
            guard carries(request.headers, credential) else { return .replay }
            guard authenticator.canRefresh(credential) else { return .fail(Self.cannotRefreshError(response)) }
            let id = try startRefresh(of: credential, refused: response, context: context, pipeline: pipeline)
            _ = try await wait(for: id, context)
            return .replay
        } catch let failure as GatewayError {
            return .fail(failure)
        }
    }

    /// Starts a refresh of `credential` and stores it before anything is awaited.
    ///
    /// - Parameter response: the refusal that calls for it; `nil` for a proactive refresh.
    /// - Returns: the refresh's id, to wait for it.
    /// - Throws: `.excessiveRefresh` (with `response`) when the guard allows no more refreshes now.
    private func startRefresh(of credential: Credential, refused response: HTTPResponse?, context: RequestContext,
                              pipeline: Pipeline) throws -> UInt64 {
        let now = clock.now
        refreshStarts.removeAll { now - $0 >= options.refreshLimitInterval }
        guard refreshStarts.count < options.maxRefreshes else {
            throw Self.excessiveRefreshError(count: refreshStarts.count, options: options, response: response)
        }
        refreshStarts.append(now)
        nextID += 1
        let id = nextID
        let scope = RefreshScope()
        if context.priority == .blocker { scope.bypassQueue() }
        refresh = Refresh(id: id, scope: scope)
        publish()
        for observer in observers { observer.refreshStarted(subject: credential.subject, proactive: response == nil) }
        let authenticator = authenticator
        let client = RefreshClient(pipeline: pipeline, scope: scope)
        let task = Task {
            let result: Result<Credential, any Error>
            do {
                result = .success(try await RefreshScope.$current.withValue(scope) {
                    try await authenticator.refresh(credential, using: client)
                })
            } catch {
                result = .failure(error)
            }
            self.finishRefresh(id, result)
        }
        refresh?.task = task
        latestRefreshTask = task
        return id
    }

    /// Settles a refresh: the new credential for every waiter, or the same error for all of
    /// them at once. A refresh that logout or `save` superseded changes nothing.
    private func finishRefresh(_ id: UInt64, _ result: Result<Credential, any Error>) {
        guard let finished = refresh, finished.id == id else { return }
        refresh = nil
        switch result {
        case .success(let renewed):
            replace(with: renewed, renewsEarly: !isDue(renewed, renewsEarly: true))
            ending = nil
            publish()
            for waiter in finished.waiters.values { waiter.resume(returning: renewed) }
            for observer in observers { observer.refreshSucceeded(subject: renewed.subject) }
            persist { try $0.save(renewed) }
        case .failure(let error):
            let subject = current?.subject
            let rejected = !(error is CancellationError)
                && ((error as? GatewayError)?.kind == .sessionExpired || authenticator.isRejection(error))
            let failure = rejected ? Self.sessionExpiredError(error) : Self.refreshFailedError(error)
            if rejected {
                replace(with: nil, renewsEarly: true)
                ending = failure
            }
            publish()
            for waiter in finished.waiters.values { waiter.resume(throwing: failure) }
            if rejected {
                for observer in observers { observer.sessionExpired(subject: subject, error: failure) }
                persist { try $0.clear() }
            } else {
                for observer in observers { observer.refreshFailed(failure) }
            }
        }
    }

    /// Runs a store change; a failure is reported to observers, and the credential in memory
    /// stays in use.
    private func persist(_ change: (any TokenStore) throws -> Void) {
        do {
            try change(store)
        } catch {
            let failure = error as? GatewayError
                ?? GatewayError(.tokenStore, "the token store failed", underlying: error)
            for observer in observers { observer.tokenStoreFailed(failure) }
        }
    }

    /// Waits for refresh `id`; a `blocker` request lets the refresh skip the queue, since it
    /// holds the queue's blocker place itself.
    ///
    /// - Throws: the refresh's error, `.loggedOut`, or `CancellationError` when this request is
    ///   cancelled (which removes it alone; the refresh goes on).
    private func wait(for id: UInt64, _ context: RequestContext) async throws -> Credential {
        nextID += 1
        let waiter = nextID
        if context.priority == .blocker { refresh?.scope.bypassQueue() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Credential, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else if refresh?.id == id {
                    refresh?.waiters[waiter] = continuation
                    notifyWaiterWatchers()
                } else if let current {
                    continuation.resume(returning: current)
                } else {
                    continuation.resume(throwing: ending ?? Self.notSignedInError())
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(waiter, of: id) }
        }
    }

    private func cancelWaiter(_ waiter: UInt64, of id: UInt64) {
        guard refresh?.id == id, let continuation = refresh?.waiters.removeValue(forKey: waiter) else { return }
        continuation.resume(throwing: CancellationError())
    }
}
