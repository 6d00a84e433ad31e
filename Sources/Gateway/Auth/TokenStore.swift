/// Where the credential of a signed-in session is kept: one store serves every request of a
/// provider, REST endpoints and GraphQL operations alike.
///
/// The `TokenCoordinator` is the store's only client while a provider runs: it loads the
/// credential once, clears the store before each refresh sends the refresh token (many servers
/// accept one once), saves each renewed credential before any request uses it, and clears the
/// store on logout, one call at a time.
/// Change credentials through the coordinator (`TokenCoordinator.save(_:)`, `logout()`), not
/// through the store, while a provider uses it. The calls are synchronous and short (a small
/// file or a keychain item).
///
/// Implementing one (a store in `UserDefaults`, which is not a safe place for tokens):
/// ```swift
/// final class DefaultsTokenStore: TokenStore {
///     func load() throws -> Credential? {
///         guard let data = UserDefaults.standard.data(forKey: "credential") else { return nil }
///         return try JSONDecoder().decode(Credential.self, from: data)
///     }
///     func save(_ credential: Credential) throws {
///         UserDefaults.standard.set(try JSONEncoder().encode(credential), forKey: "credential")
///     }
///     func clear() throws { UserDefaults.standard.removeObject(forKey: "credential") }
/// }
/// ```
public protocol TokenStore: Sendable {
    /// The stored credential, or `nil` when there is none (never signed in, or logged out).
    ///
    /// - Throws: a clear error when a stored credential exists but cannot be read; the store
    ///   keeps it as it is.
    func load() throws -> Credential?

    /// Replaces the stored credential, all at once: a reader sees the old one or the new one,
    /// never a mix.
    ///
    /// - Throws: a clear error when the credential could not be stored.
    func save(_ credential: Credential) throws

    /// Removes the stored credential; nothing stored is not an error.
    ///
    /// - Throws: a clear error when the credential could not be removed.
    func clear() throws
}
