import Foundation

/// A cache store in memory: least recently used entries go first when the byte limit is reached.
///
/// One lock guards one `State`; no method awaits while holding it. Statistics last as long as
/// the store. Put it in front of a `SQLiteCacheStore` with `LayeredCacheStore`.
public final class MemoryCacheStore: CacheStore {
    /// The default byte limit: 16 MiB.
    public static let defaultByteLimit = 16 * 1024 * 1024

    struct Slot {
        var entry: CacheEntry
        var cost: Int
        /// `CacheChecksum.of(entry)` when it was stored.
        var checksum: UInt64
        /// Where the entry's operation is counted in `State.counters`.
        var counterIndex: Int
        var hits: Int
        var lastAccess: Date
    }

    struct State {
        var entries = LRUList<CacheKey.Digest, Slot>()
        var bytes = 0
        var counters = CacheCounterTable()
    }

    /// The most bytes the entries may cost together.
    public let byteLimit: Int
    /// The largest entry stored; larger ones are not kept.
    public let maximumEntryBytes: Int
    /// Receives the warnings the store recovers from (an entry whose bytes no longer match their checksum).
    let warn: @Sendable (CacheWarning) -> Void
    let state = Locked(State())

    /// Creates an empty store.
    ///
    /// - Parameters:
    ///   - byteLimit: the most bytes the entries may cost together (`CacheEntry.byteCost`).
    ///   - maximumEntryBytes: the largest single entry kept; by default an eighth of the limit.
    ///   - onWarning: receives the warnings the store recovers from (an entry found damaged, which
    ///     it removes); by default printed on standard error. It must not use the store.
    public init(byteLimit: Int = MemoryCacheStore.defaultByteLimit, maximumEntryBytes: Int? = nil,
                onWarning: @escaping @Sendable (CacheWarning) -> Void = CacheWarning.printToStandardError) {
        self.byteLimit = max(0, byteLimit)
        self.maximumEntryBytes = min(self.byteLimit, max(0, maximumEntryBytes ?? self.byteLimit / 8))
        warn = onWarning
    }

    /// The entry of `key`, counting a hit, a stale hit or a miss.
    ///
    /// An entry whose status, header fields or body no longer match the checksum taken when it
    /// was stored is removed with one warning, and the look-up is a miss.
    public func get(_ key: CacheKey, now: Date) async -> CacheEntry? {
        getNow(key, now: now)
    }

    /// Stores `entry`, evicting least recently used entries to make room.
    ///
    /// - Returns: `false` when the entry is larger than `maximumEntryBytes` (any entry of its key
    ///   is removed then, since it is out of date).
    @discardableResult
    public func put(_ entry: CacheEntry) async -> Bool {
        putNow(entry, cost: entry.byteCost, countWrite: true)
    }

    /// Records a hit (or stale hit) of `key` at `now`.
    public func touch(_ key: CacheKey, now: Date, stale: Bool) async {
        state.withLock { state in
            let found = state.entries.use(key.digest) { slot -> Int in
                slot.hits += 1
                slot.lastAccess = now
                return slot.counterIndex
            }
            guard let found else { return }
            state.counters.update(at: found) { counters in
                if stale { counters.staleHits += 1 } else { counters.hits += 1 }
            }
        }
    }

    /// Removes the selected entries; returns how many.
    @discardableResult
    public func remove(_ selection: CacheSelection) async -> Int {
        removeNow(selection)
    }

    /// The selected entries, most recently used first.
    public func list(_ selection: CacheSelection, includeBodies: Bool) async -> [CacheRecord] {
        let slots = state.withLock { state in state.entries.entries.map(\.value) }
        return slots.compactMap { slot in
            guard selection.matches(slot.entry) else { return nil }
            var entry = slot.entry
            if !includeBodies { entry.body = Data() }
            return CacheRecord(entry: entry, size: slot.cost, hits: slot.hits, lastAccess: slot.lastAccess)
        }
    }

    /// Counters since the store was created, and what it holds now.
    public func statistics() async -> CacheStatistics {
        state.withLock { state in
            CacheStatistics(entries: state.entries.count, bytes: state.bytes, byteLimit: byteLimit,
                            operations: state.counters.counters)
        }
    }

    // MARK: Synchronous parts, for LayeredCacheStore (under its own lock) and the benchmarks.

    /// `get` without suspending.
    package func getNow(_ key: CacheKey, now: Date) -> CacheEntry? {
        let found = state.withLock { state -> (CacheEntry, UInt64)? in
            let found = state.entries.use(key.digest) { slot in
                slot.hits += 1
                slot.lastAccess = now
                return (slot.entry, slot.checksum, slot.counterIndex)
            }
            guard let (entry, checksum, counterIndex) = found else {
                state.counters.update(key.components.statisticsName) { $0.misses += 1 }
                return nil
            }
            state.counters.update(at: counterIndex) { counters in
                if entry.isFresh(at: now) { counters.hits += 1 } else { counters.staleHits += 1 }
            }
            return (entry, checksum)
        }
        // Checked outside the lock: a large body takes a while to sum.
        guard let (entry, checksum) = found else { return nil }
        guard CacheChecksum.of(entry) == checksum else {
            removeDamaged(entry, checksum: checksum, now: now)
            return nil
        }
        return entry
    }

    /// Removes an entry found damaged (unless another write replaced it meanwhile), counts its
    /// look-up as a miss rather than a hit, and warns once.
    private func removeDamaged(_ entry: CacheEntry, checksum: UInt64, now: Date) {
        let removed = state.withLock { state -> Bool in
            guard let slot = state.entries.peek(entry.key.digest), slot.checksum == checksum else { return false }
            state.entries.remove(entry.key.digest)
            state.bytes -= slot.cost
            state.counters.update(at: slot.counterIndex) { counters in
                if entry.isFresh(at: now) { counters.hits -= 1 } else { counters.staleHits -= 1 }
                counters.misses += 1
            }
            return true
        }
        guard removed else { return }
        warn(CacheWarning("a cached response of \(entry.name) no longer matched its checksum (its bytes in memory "
                          + "were damaged); it was removed, and the request is answered as on a miss"))
    }

    /// Looks up `key` without counting anything or changing the order.
    package func peekNow(_ key: CacheKey.Digest) -> CacheEntry? {
        state.withLock { $0.entries.peek(key)?.entry }
    }

    /// `put` without suspending, with the entry's cost already computed; `countWrite: false`
    /// for copies from a back store, `lastAccess` for their place in the order.
    @discardableResult
    package func putNow(_ entry: CacheEntry, cost: Int, countWrite: Bool, lastAccess: Date? = nil) -> Bool {
        let digest = entry.key.digest
        let checksum = CacheChecksum.of(entry)
        return state.withLock { state in
            if let old = state.entries.remove(digest) { state.bytes -= old.cost }
            guard cost <= maximumEntryBytes else { return false }
            while state.bytes + cost > byteLimit, let victim = state.entries.removeLeastRecent() {
                state.bytes -= victim.value.cost
                state.counters.update(at: victim.value.counterIndex) { $0.evictions += 1 }
            }
            let counterIndex = state.counters.index(for: entry.key.components.statisticsName)
            state.entries.insert(Slot(entry: entry, cost: cost, checksum: checksum, counterIndex: counterIndex,
                                      hits: 0, lastAccess: lastAccess ?? entry.storedAt), for: digest)
            state.bytes += cost
            if countWrite { state.counters.update(at: counterIndex) { $0.writes += 1 } }
            return true
        }
    }

    /// `remove` without suspending.
    @discardableResult
    package func removeNow(_ selection: CacheSelection) -> Int {
        state.withLock { state in
            if selection.selectsAll {
                let count = state.entries.count
                state.entries.removeAll()
                state.bytes = 0
                return count
            }
            if let digest = selection.key {
                guard let slot = state.entries.peek(digest), selection.matches(slot.entry) else { return 0 }
                state.entries.remove(digest)
                state.bytes -= slot.cost
                return 1
            }
            var removed = 0
            for (digest, slot) in state.entries.entries where selection.matches(slot.entry) {
                state.entries.remove(digest)
                state.bytes -= slot.cost
                removed += 1
            }
            return removed
        }
    }
}
