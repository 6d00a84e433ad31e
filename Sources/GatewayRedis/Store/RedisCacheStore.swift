import Foundation
import Gateway

/// A cache store on a Redis server, shared by every instance of an application that uses the
/// same server and key prefix: one instance's entries answer the others, and one instance's
/// invalidation or logout purge is seen by all at once.
///
/// - **Records**: each entry is a hash with the SQLite store's columns, header text, tags and
///   checksum (see `RedisKeys` for the key names); a value that fails its checksum is a miss, and
///   is deleted with one warning.
/// - **Expiry**: each entry's Redis key expires (`PEXPIRE`, milliseconds) `staleRetention` after
///   the entry stops being fresh (so that it can still be revalidated or serve when the network
///   fails), and at the latest after `maximumRetention`.
/// - **Size**: the bound is Redis's own. Give the server `maxmemory` and
///   `maxmemory-policy volatile-lru`: it then evicts the least recently used entries (which all
///   have an expiry) and never the index sets (which have none), so a logout purge always finds
///   every entry of the user. (`allkeys-lru` also bounds memory, but may evict an index, after
///   which a purge misses entries until they expire.) The store checks at its first contact and
///   warns once when memory is unbounded or the policy is `noeviction`.
/// - **Partitions and invalidation**: sorted sets index the entries by partition, operation name
///   (or REST URL) and tag; `remove` reads the narrowest index, checks each entry against the
///   selection and deletes it from every index.
/// - **Faults**: when Redis is down or slow, `get` is a miss and `put` is skipped (requests go to
///   the network), with one warning; a circuit breaker then stays away from Redis for
///   `retryAfter`, after which one request tries again, and the cache is used again once Redis
///   answers. `remove`, `list` and `statistics` throw instead, so that an invalidation that did
///   not happen is not mistaken for one that did.
/// - **Instances**: identical requests in flight on several instances make one network call
///   (`flightCoordinator`): the first instance takes a lease on the key (`SET NX PX`,
///   `flightLease` long and renewed while its call runs), the others wait for it to end (a
///   message on `<prefix>c:flights`, or the lease's expiry if its holder died, after which one
///   of them takes over) and answer with the entry it stored. Every removal is published on
///   `<prefix>c:removals`, so that the memory of a `LayeredCacheStore` in front of this store on
///   every other instance drops the same entries at once (`SharedCacheStore`). The connection
///   these are heard on sends `PING` after 15 s of silence and is made again when nothing answers
///   within 15 s more; the memory in front then forgets everything, since removals may have
///   been missed meanwhile.
/// - **Statistics**: hit and miss counters are kept in Redis (`<prefix>stats`), written in
///   batches with later commands (at most a second late); `flush()` writes them at once.
///
/// ```swift
/// let store = RedisCacheStore(url: try RedisURL("redis://127.0.0.1:6379/0"), keyPrefix: "music:")
/// let cache = ResponseCache(store: LayeredCacheStore(back: store))
/// ```
public final class RedisCacheStore: CacheStore {
    struct PendingTouch {
        var hits: Int
        var lastAccess: Double
    }

    struct State {
        var breaker: RedisCircuitBreaker
        var counters = CacheCounterTable()
        var touches: [CacheKey.Digest: PendingTouch] = [:]
        var lastFlush: ContinuousClock.Instant?
        var memoryChecked = false
        var maxMemory = 0
        /// The problems already warned about (one warning each).
        var warned: Set<String> = []
    }

    /// The client the store talks through.
    public let client: RedisClient
    /// What every key of the store starts with: one prefix per application.
    public let keyPrefix: String
    /// The largest entry stored (`CacheEntry.byteCost`); larger ones are not.
    public let maximumEntryBytes: Int
    /// How long an entry stays in Redis after it stops being fresh.
    public let staleRetention: Duration
    /// The longest an entry stays in Redis, fresh or not (entries that never expire included).
    public let maximumRetention: Duration
    /// How long an instance's lease on a key lasts without renewal: how long the other instances
    /// wait for it at most when its holder dies.
    public let flightLease: Duration
    /// What the store hears from the other instances.
    let notifications: RedisNotifications
    let keys: RedisKeys
    let warn: @Sendable (CacheWarning) -> Void
    let clock: @Sendable () -> ContinuousClock.Instant
    let state: Locked<State>

    /// Creates a store on the Redis server at `url`; nothing is sent until the first operation.
    ///
    /// - Parameters:
    ///   - url: the server, login and database.
    ///   - keyPrefix: what every key starts with; one per application sharing the server.
    ///   - poolSize: how many connections to keep.
    ///   - timeout: how long one operation may wait for Redis before it counts as down.
    ///   - retryAfter: how long the store stays away from Redis after a failure.
    ///   - maximumEntryBytes: the largest entry stored: 8 MiB by default.
    ///   - staleRetention: how long an expired entry is kept for revalidation: a day by default.
    ///   - maximumRetention: the longest any entry is kept: 7 days by default.
    ///   - flightLease: how long an instance's lease on a key it fetches lasts without renewal
    ///     (renewed while the call runs): 5 s by default.
    ///   - onWarning: receives the warnings (Redis unreachable, memory unbounded, a damaged entry);
    ///     by default printed on standard error.
    public convenience init(url: RedisURL, keyPrefix: String = "gateway:", poolSize: Int = 4,
                            timeout: Duration = .milliseconds(500), retryAfter: Duration = .seconds(10),
                            maximumEntryBytes: Int = 8 << 20, staleRetention: Duration = .seconds(86_400),
                            maximumRetention: Duration = .seconds(7 * 86_400), flightLease: Duration = .seconds(5),
                            onWarning: @escaping @Sendable (CacheWarning) -> Void = CacheWarning.printToStandardError) {
        self.init(client: RedisClient(url: url, poolSize: poolSize, timeout: timeout), keyPrefix: keyPrefix,
                  retryAfter: retryAfter, maximumEntryBytes: maximumEntryBytes, staleRetention: staleRetention,
                  maximumRetention: maximumRetention, flightLease: flightLease, onWarning: onWarning)
    }

    /// Creates a store over `client`; `clock` tells the circuit breaker the time (tests move it).
    package init(client: RedisClient, keyPrefix: String, retryAfter: Duration, maximumEntryBytes: Int,
                 staleRetention: Duration, maximumRetention: Duration, flightLease: Duration = .seconds(5),
                 onWarning: @escaping @Sendable (CacheWarning) -> Void,
                 clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.client = client
        self.keyPrefix = keyPrefix
        self.maximumEntryBytes = max(0, maximumEntryBytes)
        self.staleRetention = max(.zero, staleRetention)
        self.maximumRetention = max(.milliseconds(1), maximumRetention)
        self.flightLease = max(.milliseconds(10), flightLease)
        keys = RedisKeys(prefix: keyPrefix)
        notifications = RedisNotifications(url: client.url, keys: keys, connectTimeout: client.timeout)
        warn = onWarning
        self.clock = clock
        state = Locked(State(breaker: RedisCircuitBreaker(retryAfter: retryAfter)))
    }

    /// Redis's `maxmemory` as read at the first contact; 0 while unknown or unbounded.
    public var byteLimit: Int { state.withLock { $0.maxMemory } }

    /// Whether the circuit breaker lets operations through to Redis now.
    public var isUsingRedis: Bool {
        state.withLock { state in
            if case .closed = state.breaker.phase { return true }
            return false
        }
    }

    /// Warns once per `topic`.
    func warnOnce(_ topic: String, _ message: String) {
        let first = state.withLock { $0.warned.insert(topic).inserted }
        if first { warn(CacheWarning(message, path: client.url.description)) }
    }
}
