import Foundation
import Gateway

/// A memory store that records every look-up's key (the key a request is cached under) and the
/// name of every entry written; `onEvent` hears "cache look-up" and "cache store" as they happen.
final class RecordingCacheStore: CacheStore {
    let keys = Locked<[CacheKey]>([])
    let stored = Locked<[String]>([])
    private let onEvent: @Sendable (String) -> Void
    private let memory = MemoryCacheStore()

    init(onEvent: @escaping @Sendable (String) -> Void = { _ in }) { self.onEvent = onEvent }

    var byteLimit: Int { memory.byteLimit }

    func get(_ key: CacheKey, now: Date) async throws -> CacheEntry? {
        keys.withLock { $0.append(key) }
        onEvent("cache look-up")
        return await memory.get(key, now: now)
    }

    func put(_ entry: CacheEntry) async throws -> Bool {
        stored.withLock { $0.append(entry.name) }
        onEvent("cache store")
        return await memory.put(entry)
    }

    func touch(_ key: CacheKey, now: Date, stale: Bool) async throws {
        await memory.touch(key, now: now, stale: stale)
    }

    func remove(_ selection: CacheSelection) async throws -> Int { await memory.remove(selection) }

    func list(_ selection: CacheSelection, includeBodies: Bool) async throws -> [CacheRecord] {
        await memory.list(selection, includeBodies: includeBodies)
    }

    func statistics() async throws -> CacheStatistics { await memory.statistics() }
}
