// The examples of Sources/Gateway/Caching.
import Foundation
import Gateway
import GatewaySQLite
import GraphQLLanguage

// CacheKey
func cacheKey(normalizedText: String) {
    let getTrack = CacheKey.Operation(text: normalizedText, name: "GetTrack")   // once per operation
    let key = getTrack.key(variables: ["id": 42], endpoint: "https://api.example.com/graphql",
                           partition: .subject("user-1"))
    print(key.hex)   // 64 hex digits
}

// CacheSelection
func cacheSelection(store: any CacheStore) async throws {
    try await store.remove(.partition(.subject("user-1")))
    try await store.remove(.tag("Track:42"))
    let old = try await store.list(CacheSelection(operation: "GetTrack", expiredAt: .now))
    _ = old
}

// CacheSettings
func cacheSettings(operations: OperationStore) throws {
    let feed = Endpoint<[Track]>.get("feed").cachePolicy(.networkFirst).cacheTTL(.seconds(30))
    let track = try GraphQLRequest<JSONValue>(operation: operations["GetTrack"], variables: ["id": 42])
        .cachePolicy(.cacheOnly)
        .cacheTags(["track:42"])
    _ = (feed, track)
}

// CacheStore
enum CacheStoreExample {
    struct NullStore: CacheStore {
        var byteLimit: Int { 0 }
        func get(_ key: CacheKey, now: Date) async throws -> CacheEntry? { nil }
        func put(_ entry: CacheEntry) async throws -> Bool { false }
        func touch(_ key: CacheKey, now: Date, stale: Bool) async throws {}
        func remove(_ selection: CacheSelection) async throws -> Int { 0 }
        func list(_ selection: CacheSelection, includeBodies: Bool) async throws -> [CacheRecord] { [] }
        func statistics() async throws -> CacheStatistics { CacheStatistics() }
    }
}

// Endpoint+Cache
func endpointCachePolicy(provider: Provider, operations: OperationStore) async throws {
    let user = try await provider.send(Endpoint<User>.get("users/42").cachePolicy(.networkFirst))
    let request = try GraphQLRequest<JSONValue>(operation: operations["GetTrack"]).cachePolicy(.networkOnly)
    _ = (user, request)
}

// LayeredCacheStore
func layeredCacheStore(path: String) throws {
    let store = LayeredCacheStore(memory: MemoryCacheStore(), back: try SQLiteCacheStore(path: path))
    _ = store
}

// ResponseCache
func responseCache(api: URL, tokenStore: any TokenStore, cachePath: String, operations: OperationStore) async throws {
    let store = try SQLiteCacheStore(path: cachePath)
    let provider = Provider(baseURL: api) { config in
        config.tokens = tokenStore
        config.cache = ResponseCache(store: store)
    }
    let track = try await provider.fetch(operations["GetTrack"], variables: ["id": 42], as: GetTrack.self)
    print(track.metrics.cacheOutcome)   // miss, then hit
}

func invalidate(cache: ResponseCache) async throws {
    try await cache.invalidate(.operation("GetTrack"))
    try await cache.invalidate(.type("Track"))
}

// CacheFlightCoordinator
struct Solitary: CacheFlightCoordinator {
    func flight(for key: CacheKey, freshAt now: Date?, deadline: ContinuousClock.Instant?) async -> CacheFlight {
        .alone
    }
}

// SharedCacheStore
final class Unshared: SharedCacheStore {
    let base: any CacheStore
    init(base: any CacheStore) { self.base = base }
    var byteLimit: Int { base.byteLimit }
    func get(_ key: CacheKey, now: Date) async throws -> CacheEntry? { try await base.get(key, now: now) }
    func put(_ entry: CacheEntry) async throws -> Bool { try await base.put(entry) }
    func touch(_ key: CacheKey, now: Date, stale: Bool) async throws {
        try await base.touch(key, now: now, stale: stale)
    }
    func remove(_ selection: CacheSelection) async throws -> Int { try await base.remove(selection) }
    func list(_ selection: CacheSelection, includeBodies: Bool) async throws -> [CacheRecord] {
        try await base.list(selection, includeBodies: includeBodies)
    }
    func statistics() async throws -> CacheStatistics { try await base.statistics() }
    func observeRemovals(_ observer: @escaping @Sendable (SharedCacheRemoval) -> Void) {}
}
