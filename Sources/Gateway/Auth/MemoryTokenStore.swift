/// A `TokenStore` in memory: the credential lives as long as the store (tests, or an app that
/// signs in on every launch).
public final class MemoryTokenStore: TokenStore, CustomStringConvertible {
    private let credential: Locked<Credential?>

    /// Creates a store holding `credential`, or nothing.
    public init(_ credential: Credential? = nil) { self.credential = Locked(credential) }

    /// The credential held, or `nil`.
    public func load() -> Credential? { credential.value }

    /// Holds `credential` instead of the one held.
    public func save(_ credential: Credential) { self.credential.withLock { $0 = credential } }

    /// Holds nothing.
    public func clear() { credential.withLock { $0 = nil } }

    /// `MemoryTokenStore(Credential(…))` with the tokens redacted.
    public var description: String { "MemoryTokenStore(\(credential.value.map(\.description) ?? "empty"))" }
}

extension TokenStore where Self == MemoryTokenStore {
    /// A store in memory, holding `credential` to begin with.
    public static func memory(_ credential: Credential? = nil) -> MemoryTokenStore { MemoryTokenStore(credential) }
}
