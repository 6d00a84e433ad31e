extension GatewayError.Kind {
    /// The response cache failed: its database could not be opened, read or written.
    public static let cache = GatewayError.Kind(rawValue: "cache")
    /// A `cacheOnly` request found nothing in the cache.
    public static let cacheMiss = GatewayError.Kind(rawValue: "cache miss")
    /// A `cacheOnly` request was sent through a provider without a response cache
    /// (`Configuration.cache` is not a `ResponseCache`); nothing was sent.
    public static let cacheNotConfigured = GatewayError.Kind(rawValue: "cache not configured")
}
