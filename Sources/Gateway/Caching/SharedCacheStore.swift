/// A store that several instances (processes, machines) use at once, and that tells a store in
/// front of it (the memory of a `LayeredCacheStore`) what the other instances removed.
///
/// An instance's invalidation, purge or logout removes the entries from the shared store for
/// everyone; but each instance's memory layer holds copies of its own, which only this
/// notification reaches. When the store may have missed notifications (its connection to the
/// others dropped and came back), it says so (`.possiblyMissed`), so that nothing removed
/// elsewhere lingers.
///
/// Implementing one (over a store of this instance's, so no other instance ever removes anything):
/// ```swift
/// final class Unshared: SharedCacheStore {
///     let base: any CacheStore
///     init(base: any CacheStore) { self.base = base }
///     var byteLimit: Int { base.byteLimit }
///     func get(_ key: CacheKey, now: Date) async throws -> CacheEntry? { try await base.get(key, now: now) }
///     func put(_ entry: CacheEntry) async throws -> Bool { try await base.put(entry) }
///     func touch(_ key: CacheKey, now: Date, stale: Bool) async throws {
///         try await base.touch(key, now: now, stale: stale)
///     }
///     func remove(_ selection: CacheSelection) async throws -> Int { try await base.remove(selection) }
///     func list(_ selection: CacheSelection, includeBodies: Bool) async throws -> [CacheRecord] {
///         try await base.list(selection, includeBodies: includeBodies)
///     }
///     func statistics() async throws -> CacheStatistics { try await base.statistics() }
///     func observeRemovals(_ observer: @escaping @Sendable (SharedCacheRemoval) -> Void) {}
/// }
/// ```
public protocol SharedCacheStore: CacheStore {
    /// Calls `observer` with every removal another instance makes from now on, and whenever
    /// such removals may have been missed. Observers are called in the order they were added,
    /// on a thread of the store's; they must return quickly.
    func observeRemovals(_ observer: @escaping @Sendable (SharedCacheRemoval) -> Void)
}

/// What a `SharedCacheStore` tells the stores in front of it.
public enum SharedCacheRemoval: Sendable, Hashable {
    /// Another instance removed the selected entries.
    case removed(CacheSelection)
    /// Removals may have been missed (the store's connection to the others dropped and came
    /// back): any entry may have been removed.
    case possiblyMissed

    /// The entries that may be gone: the removal's selection, or every entry.
    public var selection: CacheSelection {
        if case .removed(let selection) = self { return selection }
        return .all
    }
}
