import Foundation
import Gateway
import GatewayRedis
import GatewaySQLite

/// `--cache PATH|URL` and `--cache-policy NAME`, shared by `gateway query` and `gateway request`.
struct CacheFlags {
    /// A cache made for a run: its response cache, and how to write what the store keeps pending.
    struct Made: Sendable {
        let cache: ResponseCache
        let flush: @Sendable () async throws -> Void
    }

    /// The policies by their command-line names.
    static let policies: [(name: String, policy: CachePolicy)] = [
        ("cache-first", .cacheFirst), ("network-only", .networkOnly), ("cache-only", .cacheOnly),
        ("network-first", .networkFirst), ("cache-and-network", .cacheAndNetwork),
    ]

    /// The help lines of both flags.
    static let help = """
          --cache PATH|URL          Use the SQLite response cache at PATH (created when missing),
                                    or the Redis one at redis://[user:password@]host:port/db:
                                    answer from it when it holds a fresh answer, store what the
                                    network answers. `gateway cache list --db PATH` shows it.
          --cache-policy POLICY     How the request uses --cache: cache-first (default),
                                    network-only, cache-only (a miss is an error, exit 1),
                                    network-first (the cache answers when the network fails) or
                                    cache-and-network (print the cached answer, then the fresh one).
        """

    /// The database path or Redis URL, when `--cache` was given.
    var path: String?
    /// The Redis server, when `--cache` was a `redis://` URL.
    var redis: RedisURL?
    /// The policy; `cacheFirst` when not given.
    var policy: CachePolicy

    init(parsing arguments: inout Arguments) throws(UsageError) {
        path = try arguments.option("cache")
        let name = try arguments.choice("cache-policy", Self.policies.map(\.name))
        policy = Self.policies.first { $0.name == name }?.policy ?? .cacheFirst
        if name != nil, path == nil {
            throw UsageError("--cache-policy needs --cache PATH (the database the policy reads and writes)")
        }
        if let path, path.isEmpty { throw UsageError("--cache needs a file path or a redis:// URL") }
        if let path, path.lowercased().hasPrefix("redis://") || path.lowercased().hasPrefix("rediss://") {
            do {
                redis = try RedisURL(path)
            } catch {
                throw UsageError("--cache: \(error)")
            }
        }
    }

    /// The cache for `--cache`, or `nil` without it. A Redis cache keys its entries under
    /// `gateway:` and waits at most a second for Redis before it goes to the network without it.
    ///
    /// - Throws: `GatewayError` of kind `.cache` when the database cannot be opened or created.
    func makeCache() throws -> Made? {
        guard let path else { return nil }
        if let redis {
            let store = RedisCacheStore(url: redis, poolSize: 1, timeout: .seconds(1))
            return Made(cache: ResponseCache(store: store, defaultPolicy: policy), flush: { try await store.flush() })
        }
        let store = try SQLiteCacheStore(path: path)
        return Made(cache: ResponseCache(store: store, defaultPolicy: policy), flush: { try await store.flush() })
    }
}
