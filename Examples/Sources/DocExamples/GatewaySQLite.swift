// The examples of Sources/GatewaySQLite.
import Gateway
import GatewaySQLite

// SQLiteCacheStore
func sqliteCacheStore() throws {
    let store = try SQLiteCacheStore(path: "/home/me/.cache/gateway/cache.sqlite", byteLimit: 50 << 20)
    let cache = LayeredCacheStore(memory: MemoryCacheStore(), back: store)
    _ = cache
}
