import Foundation

/// A memory store in front of a slower store (normally a `SQLiteCacheStore`).
///
/// Reads try memory first, then the back store, and copy what the back store found into memory.
/// Writes go to the back store first and reach memory only after it succeeded, so memory never
/// holds an entry the back store refused; removals clear both. The back store is the record:
/// its statistics are the layered store's, and a hit served from memory is reported to it with
/// `touch`, so the counts in the database include hits that never reached it.
///
/// Write through the layered store only: a change made directly to the back store (or through
/// another store of the same file) is not seen by the memory in front until that entry leaves it.
/// The exception is a back store that other instances share (`SharedCacheStore`, such as a
/// `RedisCacheStore`): what another instance invalidates or purges leaves this memory at once,
/// and the memory is emptied whenever such news may have been missed. Identical requests on
/// several instances share one network call when the back store coordinates them
/// (`flightCoordinator` is the back store's).
///
/// Memory holds a subset of the back store's entries (it may keep one the back store evicted
/// for space, which is still a correct answer). Concurrent writes are ordered by an epoch: an
/// operation copies into memory only when no write overlapped it, so a late copy never brings
/// back an entry that a newer write replaced or removed.
///
/// ```swift
/// let store = LayeredCacheStore(memory: MemoryCacheStore(), back: try SQLiteCacheStore(path: path))
/// ```
public final class LayeredCacheStore: SharedCacheStore {
    private struct State {
        /// Bumped when a write begins.
        var epoch: UInt64 = 0
        /// Writes under way.
        var activeWrites = 0
    }

    /// The memory store in front.
    public let memory: MemoryCacheStore
    /// The store behind it.
    public let back: any CacheStore
    private let state = Locked(State())

    /// Puts `memory` in front of `back`; when `back` is shared with other instances, their
    /// removals reach `memory` from now on.
    public init(memory: MemoryCacheStore = MemoryCacheStore(), back: any CacheStore) {
        self.memory = memory
        self.back = back
        (back as? any SharedCacheStore)?.observeRemovals { [weak self] removal in
            self?.removedElsewhere(removal.selection)
        }
    }

    /// The back store's limit.
    public var byteLimit: Int { back.byteLimit }

    /// The back store's coordinator of requests in flight on several instances, if it has one.
    public var flightCoordinator: (any CacheFlightCoordinator)? { back.flightCoordinator }

    /// Adds an observer of the removals other instances make, when the back store is shared
    /// with them (`SharedCacheStore`); otherwise there are none, and it is never called.
    public func observeRemovals(_ observer: @escaping @Sendable (SharedCacheRemoval) -> Void) {
        (back as? any SharedCacheStore)?.observeRemovals(observer)
    }

    /// The entry of `key` from memory, else from the back store (then copied into memory).
    public func get(_ key: CacheKey, now: Date) async throws -> CacheEntry? {
        if let entry = memory.getNow(key, now: now) {
            // Only counting: a back store that cannot count now does not fail the hit.
            try? await back.touch(key, now: now, stale: !entry.isFresh(at: now))
            return entry
        }
        let start = state.withLock { ($0.epoch, $0.activeWrites) }
        guard let entry = try await back.get(key, now: now) else { return nil }
        state.withLock { state in
            guard start.1 == 0, state.activeWrites == 0, state.epoch == start.0 else { return }
            memory.putNow(entry, cost: entry.byteCost, countWrite: false, lastAccess: now)
        }
        return entry
    }

    /// Stores `entry` in the back store, then (when that succeeded and no other write overlapped) in memory.
    @discardableResult
    public func put(_ entry: CacheEntry) async throws -> Bool {
        let selection = CacheSelection.key(entry.key)
        let mine = beginWrite(clearing: selection)
        var stored = false
        do {
            stored = try await back.put(entry)
        } catch {
            endWrite(mine, clearing: selection, then: nil)
            throw error
        }
        endWrite(mine, clearing: selection, then: stored ? entry : nil)
        return stored
    }

    /// Records a hit in both stores.
    public func touch(_ key: CacheKey, now: Date, stale: Bool) async throws {
        await memory.touch(key, now: now, stale: stale)
        try await back.touch(key, now: now, stale: stale)
    }

    /// Removes the selected entries from both stores; returns how many the back store removed.
    @discardableResult
    public func remove(_ selection: CacheSelection) async throws -> Int {
        let mine = beginWrite(clearing: selection)
        defer { endWrite(mine, clearing: selection, then: nil) }
        return try await back.remove(selection)
    }

    /// The back store's entries.
    public func list(_ selection: CacheSelection, includeBodies: Bool) async throws -> [CacheRecord] {
        try await back.list(selection, includeBodies: includeBodies)
    }

    /// The back store's statistics.
    public func statistics() async throws -> CacheStatistics {
        try await back.statistics()
    }

    /// Another instance removed the selected entries from the back store: they leave memory, and
    /// the new epoch keeps a copy read before the removal from coming back.
    private func removedElsewhere(_ selection: CacheSelection) {
        state.withLock { state in
            state.epoch &+= 1
            memory.removeNow(selection)
        }
    }

    /// Starts a write: a new epoch, and the selected entries leave memory.
    private func beginWrite(clearing selection: CacheSelection) -> (epoch: UInt64, overlapped: Bool) {
        state.withLock { state in
            let overlapped = state.activeWrites > 0
            state.epoch &+= 1
            state.activeWrites += 1
            memory.removeNow(selection)
            return (state.epoch, overlapped)
        }
    }

    /// Ends a write: the selected entries leave memory again (a copy may have raced in), and
    /// `entry` goes in only when no other write overlapped this one.
    private func endWrite(_ write: (epoch: UInt64, overlapped: Bool), clearing selection: CacheSelection,
                          then entry: CacheEntry?) {
        state.withLock { state in
            state.activeWrites -= 1
            memory.removeNow(selection)
            guard let entry, !write.overlapped, state.epoch == write.epoch else { return }
            memory.putNow(entry, cost: entry.byteCost, countWrite: true)
        }
    }
}
