/// How a cache has been used, in total and per operation.
///
/// Stores keep these across runs where they can (the SQLite store keeps them in its database,
/// so `gateway cache stats` can read them).
public struct CacheStatistics: Sendable, Hashable {
    /// How many entries are stored.
    public var entries: Int
    /// The bytes the entries count against the limit (`CacheEntry.byteCost` each).
    public var bytes: Int
    /// The store's byte limit.
    public var byteLimit: Int
    /// The size of the store's files on disk, for stores that have files.
    public var diskBytes: Int?
    /// The counters per operation name (`CacheKeyComponents.statisticsName`).
    public var operations: [String: CacheCounters]

    /// Creates statistics.
    public init(entries: Int = 0, bytes: Int = 0, byteLimit: Int = 0, diskBytes: Int? = nil,
                operations: [String: CacheCounters] = [:]) {
        self.entries = entries
        self.bytes = bytes
        self.byteLimit = byteLimit
        self.diskBytes = diskBytes
        self.operations = operations
    }

    /// The counters of every operation added together.
    public var totals: CacheCounters {
        operations.values.reduce(into: CacheCounters()) { $0.add($1) }
    }

    /// Fresh hits. Stale hits are counted apart.
    public var hits: Int { totals.hits }
    /// Look-ups that found nothing.
    public var misses: Int { totals.misses }
    /// Look-ups that found an expired entry.
    public var staleHits: Int { totals.staleHits }
    /// Entries stored.
    public var writes: Int { totals.writes }
    /// Entries removed to stay under the byte limit.
    public var evictions: Int { totals.evictions }
    /// Hits (fresh and stale) over all look-ups, or `nil` before the first look-up.
    public var hitRate: Double? { totals.hitRate }
}

/// Counters of one operation (or of all of them).
public struct CacheCounters: Sendable, Hashable {
    /// Fresh hits.
    public var hits: Int
    /// Look-ups that found nothing.
    public var misses: Int
    /// Look-ups that found an expired entry.
    public var staleHits: Int
    /// Entries stored.
    public var writes: Int
    /// Entries removed to stay under the byte limit.
    public var evictions: Int

    /// Creates counters.
    public init(hits: Int = 0, misses: Int = 0, staleHits: Int = 0, writes: Int = 0, evictions: Int = 0) {
        self.hits = hits
        self.misses = misses
        self.staleHits = staleHits
        self.writes = writes
        self.evictions = evictions
    }

    /// Adds `other` to these counters.
    public mutating func add(_ other: CacheCounters) {
        hits += other.hits
        misses += other.misses
        staleHits += other.staleHits
        writes += other.writes
        evictions += other.evictions
    }

    /// Whether every counter is zero.
    public var isZero: Bool { hits == 0 && misses == 0 && staleHits == 0 && writes == 0 && evictions == 0 }

    /// Hits (fresh and stale) over all look-ups, or `nil` before the first look-up.
    public var hitRate: Double? {
        let lookups = hits + staleHits + misses
        return lookups == 0 ? nil : Double(hits + staleHits) / Double(lookups)
    }
}

/// Counters gathered per operation, with a bound on how many names are kept.
///
/// Past `maximumNames` names, further names are counted under `(other)`, so statistics never
/// grow without bound however many distinct URLs a REST client fetches. A name's counters keep
/// their index, so a store can remember it with an entry and count a hit without hashing the name.
package struct CacheCounterTable: Sendable, Hashable {
    /// The name counters go under once the table is full.
    package static let overflowName = "(other)"
    /// How many names are kept.
    package static let maximumNames = 1000

    private var indexes: [String: Int] = [:]
    private var names: [String] = []
    private var values: [CacheCounters] = []

    /// An empty table.
    package init() {}

    /// The index of `name`'s counters (or of `(other)` when the table is full), made when new.
    package mutating func index(for name: String) -> Int {
        if let index = indexes[name] { return index }
        let kept = names.count < CacheCounterTable.maximumNames ? name : CacheCounterTable.overflowName
        if let index = indexes[kept] { return index }
        indexes[kept] = names.count
        names.append(kept)
        values.append(CacheCounters())
        return names.count - 1
    }

    /// Changes the counters at `index` (from `index(for:)`).
    package mutating func update(at index: Int, _ change: (inout CacheCounters) -> Void) {
        guard values.indices.contains(index) else { return }
        change(&values[index])
    }

    /// Changes the counters of `name`.
    package mutating func update(_ name: String, _ change: (inout CacheCounters) -> Void) {
        update(at: index(for: name), change)
    }

    /// Adds every counter of `other`.
    package mutating func add(_ other: CacheCounterTable) {
        for (name, value) in zip(other.names, other.values) { update(name) { $0.add(value) } }
    }

    /// The counters by name.
    package var counters: [String: CacheCounters] {
        var byName: [String: CacheCounters] = [:]
        for (name, value) in zip(names, values) { byName[name] = value }
        return byName
    }

    /// Whether no counters were recorded.
    package var isEmpty: Bool { names.isEmpty }

    /// Every counter added together.
    package var totals: CacheCounters { values.reduce(into: CacheCounters()) { $0.add($1) } }

    /// Forgets every counter (indexes handed out before are no longer valid).
    package mutating func removeAll() { self = CacheCounterTable() }
}
