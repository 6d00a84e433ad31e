/// A store that several instances (processes, machines) use at once, and that tells a store in
/// front of it (the memory of a `LayeredCacheStore`) what the other instances removed.
///
/// An instance's invalidation, purge or logout removes the entries from the shared store for
/// everyone; but each instance's memory layer holds copies of its own, which only this
/// notification reaches. When the store may have missed notifications (its connection to the
/// others dropped and came back), it reports `.all`, so that nothing removed elsewhere lingers.
///
/// Implementing one (a store whose other instances never remove anything):
/// ```swift
/// final class Unshared: SharedCacheStore {
///     let store = MemoryCacheStore()
///     var byteLimit: Int { store.byteLimit }
///     func get(_ key: CacheKey, now: Date) async throws -> CacheEntry? { try await store.get(key, now: now) }
///     func put(_ entry: CacheEntry) async throws -> Bool { try await store.put(entry) }
///     func touch(_ key: CacheKey, now: Date, stale: Bool) async throws {
///         try await store.touch(key, now: now, stale: stale)
///     }
///     func remove(_ selection: CacheSelection) async throws -> Int { try await store.remove(selection) }
///     func list(_ selection: CacheSelection, includeBodies: Bool) async throws -> [CacheRecord] {
///         try await store.list(selection, includeBodies: includeBodies)
///     }
///     func statistics() async throws -> CacheStatistics { try await store.statistics() }
///     func observeRemovals(_ observer: @escaping @Sendable (CacheSelection) -> Void) {}
/// }
/// ```
public protocol SharedCacheStore: CacheStore {
    /// Calls `observer` with the selection of every removal another instance makes from now on,
    /// and with `.all` whenever such removals may have been missed. Observers are called in the
    /// order they were added, on a thread of the store's; they must return quickly.
    func observeRemovals(_ observer: @escaping @Sendable (CacheSelection) -> Void)
}
