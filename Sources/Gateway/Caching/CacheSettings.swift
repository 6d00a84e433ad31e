/// How one request uses the response cache: its policy, how long its response stays fresh, and
/// the tags it is stored under. Unset members follow the provider's `ResponseCache`.
///
/// ```swift
/// let feed = Endpoint<[Track]>.get("feed").cachePolicy(.networkFirst).cacheTTL(.seconds(30))
/// let track = try GraphQLRequest<JSONValue>(operation: operations["GetTrack"], variables: ["id": 42])
///     .cachePolicy(.cacheOnly)
///     .cacheTags(["track:42"])
/// ```
/// `JSONValue`, the data as plain JSON, needs `import GraphQLLanguage`.
public struct CacheSettings: Sendable, Hashable {
    /// The policy; the cache's `defaultPolicy` when `nil`.
    public var policy: CachePolicy?
    /// How long a stored response stays fresh; when `nil`, the cache's `defaultTTL` (GraphQL) or
    /// what the response's headers say (REST). For a REST response it replaces the freshness of
    /// its headers, but never lets a `no-store` response be stored or a `no-cache` one answer
    /// without revalidation.
    public var ttl: Duration?
    /// Labels the stored response carries, for `ResponseCache.invalidate(.tag(_:))`.
    public var tags: [String]

    /// Creates settings; with no arguments every member follows the cache.
    public init(policy: CachePolicy? = nil, ttl: Duration? = nil, tags: [String] = []) {
        self.policy = policy
        self.ttl = ttl
        self.tags = tags
    }
}
