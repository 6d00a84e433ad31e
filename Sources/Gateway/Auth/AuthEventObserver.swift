/// Hears what happens to the session: refreshes, their failures, the end of a session and
/// logout. The hook for everything that belongs to one signed-in user, such as the user's cache
/// partition.
///
/// Every method has an empty default. All but `loggedOut` are synchronous and run inside the
/// coordinator, after the store is up to date and before the requests waiting for the refresh
/// go on: keep them quick. `loggedOut` is awaited before `logout()` returns, so a cache
/// can purge the user's partition there:
/// ```swift
/// struct PurgeOnLogout: AuthEventObserver {
///     let cache: ResponseCache
///     func loggedOut(subject: String?) async {
///         _ = try? await cache.purge(partition: CachePartition(subject: subject))
///     }
/// }
/// let provider = Provider(baseURL: api) { config in
///     config.tokens = store
///     config.authObservers = [PurgeOnLogout(cache: cache)]
/// }
/// ```
/// A `Configuration.cache` that conforms to this protocol is told without being listed.
public protocol AuthEventObserver: Sendable {
    /// A refresh began; `proactive` when the access token was about to expire rather than refused.
    func refreshStarted(subject: String?, proactive: Bool)
    /// A refresh succeeded; requests waiting for it go on with the new credential.
    func refreshSucceeded(subject: String?)
    /// A refresh failed without ending the session (the network, a server error); every
    /// request waiting for it failed with `error`.
    func refreshFailed(_ error: GatewayError)
    /// The server refused to renew the session: the credential was removed from the store and
    /// the user must sign in again. Every request waiting for the refresh failed with `error`.
    func sessionExpired(subject: String?, error: GatewayError)
    /// `logout()` ended the session of `subject` (`nil` when nobody or an anonymous session was
    /// signed in): purge what belongs to that user.
    func loggedOut(subject: String?) async
    /// The token store failed to save or clear a credential. After a refresh the coordinator goes
    /// on with the credential in memory; when the store could not be cleared before a refresh,
    /// that refresh was not started.
    func tokenStoreFailed(_ error: GatewayError)
}

extension AuthEventObserver {
    /// Does nothing.
    public func refreshStarted(subject: String?, proactive: Bool) {}
    /// Does nothing.
    public func refreshSucceeded(subject: String?) {}
    /// Does nothing.
    public func refreshFailed(_ error: GatewayError) {}
    /// Does nothing.
    public func sessionExpired(subject: String?, error: GatewayError) {}
    /// Does nothing.
    public func loggedOut(subject: String?) async {}
    /// Does nothing.
    public func tokenStoreFailed(_ error: GatewayError) {}
}
