extension CacheOutcome {
    /// A stale entry answered: the network failed (`networkFirst`) or may not be used (`cacheOnly`).
    public static let stale = CacheOutcome(rawValue: "stale")
    /// A stale entry was confirmed by the server (`304 Not Modified`) and answered.
    public static let revalidated = CacheOutcome(rawValue: "revalidated")
    /// The request or its response may not be cached (a mutation, an unsafe method, `no-store`, …).
    public static let notCacheable = CacheOutcome(rawValue: "not cacheable")
    /// The policy (`networkOnly`) skipped the look-up; the response may still have been stored.
    public static let bypassed = CacheOutcome(rawValue: "bypassed")
    /// An identical request was already in flight; this one shared its network call.
    public static let shared = CacheOutcome(rawValue: "shared")
}
