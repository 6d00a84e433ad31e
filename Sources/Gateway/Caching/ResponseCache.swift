import Foundation

/// The response cache of a provider: looks requests up before they are queued (step 2), stores
/// what the network answered once it decoded (step 10), shares identical requests in flight,
/// and forgets a user's data when they log out.
///
/// ```swift
/// let store = try SQLiteCacheStore(path: cachePath)
/// let provider = Provider(baseURL: api) { config in
///     config.tokens = tokenStore
///     config.cache = ResponseCache(store: store)
/// }
/// let track = try await provider.fetch(operations["GetTrack"], variables: ["id": 42], as: GetTrack.self)
/// print(track.metrics.cacheOutcome)   // miss, then hit
/// ```
///
/// - **Keys** are `CacheKey`s: the normalized operation and canonical variables of a GraphQL
///   query, or the method, sorted URL and `Vary` fields of a REST GET, with the partition (the
///   credential's subject; anonymous requests have their own).
/// - **Policies** (`CachePolicy`) are chosen per request (`CacheSettings`), `defaultPolicy`
///   otherwise. `cacheAndNetwork` through `send` or `fetch` answers like `networkFirst`; use
///   `Provider.watch` for the cached value followed by the fresh one.
/// - **What is stored**: GraphQL queries with data (with errors only when
///   `storesResponsesWithErrors`), never mutations, subscriptions or uploads, never a response
///   that says `Cache-Control: no-store` or `Vary: *` (`private` is kept, in the requester's
///   partition like every entry); REST GETs by the
///   HTTP caching rules (RFC 9111): never `no-store` or `Vary: *`; `max-age` or `Expires` set the
///   freshness (else a tenth of the age `Last-Modified` gives), `no-cache` and stale entries are
///   revalidated with `ETag` / `Last-Modified`; a response with no freshness and no validator is
///   kept (already stale) only for `networkFirst` and `cacheAndNetwork`. Only complete,
///   successful responses are stored, and only once they have decoded into the request's type.
/// - **Invalidation**: `invalidate(_:)` by key, operation, tag, type, partition or everything;
///   a successful unsafe REST request invalidates its URL; a mutation's response invalidates the
///   queries that returned an object of a type it names (`invalidatesByType`).
/// - **Logout** purges the user's partition (the cache is an `AuthEventObserver`, told by the
///   provider's token coordinator); a response whose request began before a purge or an
///   invalidation is not stored after it (one made by another instance sharing the store, too,
///   when the store tells of them: `SharedCacheStore`).
/// - **Identical requests in flight** (same key) share one network call; a cancelled one leaves
///   the others going. With a store that several instances share and that coordinates them
///   (`CacheStore.flightCoordinator`, a `RedisCacheStore`), identical requests in flight on all
///   the instances share one call: one instance makes it, the others answer with what it stored.
///
/// The store's failures never fail a request: a look-up that cannot read is a miss and a write
/// that fails is skipped (except under `cacheOnly`, where the store is the only answer). Nor does
/// a damaged entry: one whose bytes no longer match the checksum the store keeps, or whose body
/// no longer decodes into the type the request asks for, is removed with one warning and the
/// request is answered as on a miss (from the network, whose answer replaces it; under
/// `cacheOnly`, with a `.cacheMiss` error). A response is stored only once it has decoded.
public final class ResponseCache: AuthEventObserver {
    /// Where entries live.
    public let store: any CacheStore
    /// The policy of requests that do not choose one: `cacheFirst`.
    public let defaultPolicy: CachePolicy
    /// How long a stored GraphQL response stays fresh when the request does not say: 5 minutes;
    /// `nil` keeps such entries fresh until they are evicted or invalidated. (REST responses
    /// follow their headers.)
    public let defaultTTL: Duration?
    /// Whether GraphQL responses with errors next to their data are stored; `false`.
    public let storesResponsesWithErrors: Bool
    /// Whether identical requests in flight share one network call; `true`.
    public let deduplicatesRequests: Bool
    /// Whether a mutation's response invalidates cached queries holding an object of a type it
    /// names (`__typename`); `true`.
    public let invalidatesByType: Bool
    /// Where entry times come from.
    let now: @Sendable () -> Date
    /// Receives the warnings the cache recovers from (an entry that no longer decodes).
    let warn: @Sendable (CacheWarning) -> Void
    let state = Locked(State())
    /// The watchers of keys (`Provider.watch`), told of every store and removal.
    let changes = CacheChangeFeed()
    /// Which instance calls the network for a key, when the store coordinates instances.
    let flightCoordinator: (any CacheFlightCoordinator)?

    struct State {
        /// Bumped by every invalidation and purge: a response whose request began at an older
        /// generation is not stored.
        var generation: UInt64 = 0
        /// What is known of each REST URL (normalized): the `Vary` names seen, learned from
        /// responses and the store, and the last key made for it.
        var restURLs: [String: RESTURLMemo] = [:]
        /// Network calls in flight, by key.
        var calls: [CacheKey.Digest: SharedCall] = [:]
    }

    /// Creates a cache over `store`.
    ///
    /// - Parameters:
    ///   - store: where entries live: a `MemoryCacheStore`, a `SQLiteCacheStore`, or a
    ///     `LayeredCacheStore` of both.
    ///   - defaultPolicy: the policy of requests that do not choose one.
    ///   - defaultTTL: how long GraphQL responses stay fresh when the request does not say; `nil`
    ///     for no expiry.
    ///   - storesResponsesWithErrors: whether GraphQL responses with errors next to data are stored.
    ///   - deduplicatesRequests: whether identical requests in flight share one network call.
    ///   - invalidatesByType: whether mutation responses invalidate queries by `__typename`.
    ///   - onWarning: receives the warnings the cache recovers from (an entry that no longer
    ///     decodes, which it removes; a logout whose partition could not be purged); by default
    ///     printed on standard error. The stores report their own (see their `onWarning`).
    ///   - now: the clock entry times are read from (tests pass a fixed one).
    public init(store: any CacheStore, defaultPolicy: CachePolicy = .cacheFirst,
                defaultTTL: Duration? = .seconds(300), storesResponsesWithErrors: Bool = false,
                deduplicatesRequests: Bool = true, invalidatesByType: Bool = true,
                onWarning: @escaping @Sendable (CacheWarning) -> Void = CacheWarning.printToStandardError,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.defaultPolicy = defaultPolicy
        self.defaultTTL = defaultTTL
        self.storesResponsesWithErrors = storesResponsesWithErrors
        self.deduplicatesRequests = deduplicatesRequests
        self.invalidatesByType = invalidatesByType
        self.now = now
        warn = onWarning
        flightCoordinator = store.flightCoordinator
        // Another instance's invalidation or purge, like this one's, keeps a response whose
        // request began before it from being stored after it.
        (store as? any SharedCacheStore)?.observeRemovals { [weak self] removal in
            if case .removed = removal { self?.bumpGeneration() }
        }
    }

    /// Removes the selected entries.
    ///
    /// A request under way when this is called does not store its response afterwards.
    ///
    /// ```swift
    /// try await cache.invalidate(.operation("GetTrack"))
    /// try await cache.invalidate(.type("Track"))
    /// ```
    /// - Returns: how many entries were removed.
    /// - Throws: `GatewayError` of kind `.cache` when the store cannot be written.
    @discardableResult
    @concurrent public func invalidate(_ target: CacheInvalidation) async throws -> Int {
        bumpGeneration()
        // The watchers of removed entries hear of it; nobody watching, nothing is listed.
        let watched = changes.isWatched ? (try? await store.list(target.selection, includeBodies: false)) ?? [] : []
        let removed = try await store.remove(target.selection)
        changes.notify(watched.map(\.entry.key), .removed)
        return removed
    }

    /// Removes every entry of `partition`, leaving no trace of them in the store's files.
    ///
    /// - Returns: how many entries were removed.
    /// - Throws: `GatewayError` of kind `.cache` when the store cannot be written.
    @discardableResult
    @concurrent public func purge(partition: CachePartition) async throws -> Int {
        try await invalidate(.partition(partition))
    }

    /// Purges the partition of the user who logged out (the anonymous partition is kept).
    @concurrent public func loggedOut(subject: String?) async {
        guard let subject else {
            bumpGeneration()
            return
        }
        do {
            try await purge(partition: .subject(subject))
        } catch {
            warn(CacheWarning(
                "the cache partition of the user who logged out could not be purged: \(error)"))
        }
    }

    /// The store's statistics: hits, misses, stale hits, writes, evictions and bytes.
    ///
    /// - Throws: `GatewayError` of kind `.cache` when the store cannot be read.
    @concurrent public func statistics() async throws -> CacheStatistics { try await store.statistics() }

    /// The current purge generation.
    var generation: UInt64 { state.withLock { $0.generation } }

    func bumpGeneration() { state.withLock { $0.generation &+= 1 } }
}

/// Which entries `ResponseCache.invalidate(_:)` removes.
public struct CacheInvalidation: Sendable, Hashable {
    /// The store selection it stands for.
    public let selection: CacheSelection

    /// Entries matching `selection`.
    public init(_ selection: CacheSelection) { self.selection = selection }

    /// The entry of one key.
    public static func key(_ key: CacheKey) -> CacheInvalidation { CacheInvalidation(.key(key)) }
    /// Entries of one GraphQL operation name (every partition, every variable).
    public static func operation(_ name: String) -> CacheInvalidation { CacheInvalidation(.operation(name)) }
    /// Entries of one REST URL (every partition and `Vary` variant).
    public static func url(_ url: URL) -> CacheInvalidation {
        CacheInvalidation(.operation(CacheKeyComponents.normalizedURL(url)))
    }
    /// Entries carrying `tag`.
    public static func tag(_ tag: String) -> CacheInvalidation { CacheInvalidation(.tag(tag)) }
    /// GraphQL entries whose response holds an object of type `typename` (by `__typename`).
    public static func type(_ typename: String) -> CacheInvalidation {
        CacheInvalidation(.tag(ResponseCache.typeTag(typename)))
    }
    /// Entries of one partition.
    public static func partition(_ partition: CachePartition) -> CacheInvalidation {
        CacheInvalidation(.partition(partition))
    }
    /// Every entry.
    public static var all: CacheInvalidation { CacheInvalidation(.all) }
}
