/// How one request uses the response cache.
public enum CachePolicy: Sendable, Hashable, CaseIterable {
    /// Answer from the cache when a fresh entry exists; otherwise fetch and store.
    case cacheFirst
    /// Always fetch; never read the cache (a successful response may still be stored).
    case networkOnly
    /// Answer only from the cache; a miss is an error that says so.
    case cacheOnly
    /// Fetch first; when the network fails, answer from the cache.
    case networkFirst
    /// Answer with the cached value (when there is one), then with the fresh one.
    case cacheAndNetwork
}
