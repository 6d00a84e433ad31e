extension Provider {
    /// The coordinator of the provider's session: set up from `Configuration.tokens` (or
    /// `Configuration.tokenCoordinator`); `nil` when the provider attaches no tokens.
    ///
    /// ```swift
    /// try await provider.tokenCoordinator?.save(credential)   // after signing in
    /// let user = try await provider.tokenCoordinator?.subject()
    /// ```
    public var tokenCoordinator: TokenCoordinator? { pipeline.tokens }

    /// Ends the session: clears the token store, discards a refresh under way (the requests
    /// waiting for it fail with `.loggedOut` and nothing is replayed), and tells the auth
    /// observers (`loggedOut(subject:)`, where the user's cache partition is purged) before
    /// returning. Does nothing when the provider has no token store.
    ///
    /// - Throws: the store's error when the credential could not be removed from it.
    @concurrent public func logout() async throws {
        try await pipeline.tokens?.logout()
    }
}
