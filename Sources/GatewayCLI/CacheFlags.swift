import Foundation
import Gateway
import GatewaySQLite

/// `--cache PATH` and `--cache-policy NAME`, shared by `gateway query` and `gateway request`.
struct CacheFlags {
    /// The policies by their command-line names.
    static let policies: [(name: String, policy: CachePolicy)] = [
        ("cache-first", .cacheFirst), ("network-only", .networkOnly), ("cache-only", .cacheOnly),
        ("network-first", .networkFirst), ("cache-and-network", .cacheAndNetwork),
    ]

    /// The help lines of both flags.
    static let help = """
          --cache PATH              Use the SQLite response cache at PATH (created when missing):
                                    answer from it when it holds a fresh answer, store what the
                                    network answers. `gateway cache list --db PATH` shows it.
          --cache-policy POLICY     How the request uses --cache: cache-first (default),
                                    network-only, cache-only (a miss is an error, exit 1),
                                    network-first (the cache answers when the network fails) or
                                    cache-and-network (print the cached answer, then the fresh one).
        """

    /// The database path, when `--cache` was given.
    var path: String?
    /// The policy; `cacheFirst` when not given.
    var policy: CachePolicy

    init(parsing arguments: inout Arguments) throws(UsageError) {
        path = try arguments.option("cache")
        let name = try arguments.choice("cache-policy", Self.policies.map(\.name))
        policy = Self.policies.first { $0.name == name }?.policy ?? .cacheFirst
        if name != nil, path == nil {
            throw UsageError("--cache-policy needs --cache PATH (the database the policy reads and writes)")
        }
        if let path, path.isEmpty { throw UsageError("--cache needs a file path") }
    }

    /// The store and cache for `--cache`, or `nil` without it.
    ///
    /// - Throws: `GatewayError` of kind `.cache` when the database cannot be opened or created.
    func makeCache() throws -> (SQLiteCacheStore, ResponseCache)? {
        guard let path else { return nil }
        let store = try SQLiteCacheStore(path: path)
        return (store, ResponseCache(store: store, defaultPolicy: policy))
    }
}
