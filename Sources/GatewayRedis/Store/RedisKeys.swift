import Gateway

/// The names of the store's Redis keys, all under one application prefix.
///
/// - `<prefix>e:<hex>`: an entry, a hash of the SQLite store's columns (`RedisRecord`).
/// - `<prefix>i:all`, `<prefix>i:p:-` (anonymous), `<prefix>i:p:=<subject>`, `<prefix>i:o:<name>`,
///   `<prefix>i:t:<tag>`: index sorted sets of entry digests, scored by when the entry's Redis key
///   expires (milliseconds since 1970), so that members of expired entries can be pruned by score.
/// - `<prefix>stats`: a hash of counters, field `<counter>:<statistics name>`.
/// - `<prefix>f:<hex>`: the lease of the instance calling the network for an entry (a random
///   token, `SET NX PX`).
/// - Channels: `<prefix>c:flights` (a lease ended: `<hex> stored` or `<hex> none`) and
///   `<prefix>c:removals` (an instance removed entries: `RedisRemovalNotice` as JSON). Channels
///   belong to the server, not to a database: applications on one server need distinct prefixes.
///
/// Names, subjects and tags go into key names as they are: Redis keys are binary-safe, and each
/// kind of index has a fixed lead, so no two index names collide.
struct RedisKeys: Sendable {
    let prefix: String
    /// `<prefix>e:` as bytes, made once.
    private let entryLead: [UInt8]

    init(prefix: String) {
        self.prefix = prefix
        entryLead = Array((prefix + "e:").utf8)
    }

    func entry(_ digest: CacheKey.Digest) -> String { prefix + "e:" + digest.hex }

    /// `entry(digest)` as bytes, written in one allocation (a hit's command argument).
    func entryBytes(_ digest: CacheKey.Digest) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: entryLead.count + 64) { buffer, count in
            _ = buffer.initialize(from: entryLead)
            digest.writeHex(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[entryLead.count...])))
            count = entryLead.count + 64
        }
    }
    func entry(hex: String) -> String { prefix + "e:" + hex }
    var all: String { prefix + "i:all" }
    func partition(_ partition: CachePartition) -> String {
        partition.subject.map { prefix + "i:p:=" + $0 } ?? prefix + "i:p:-"
    }
    func operation(_ name: String) -> String { prefix + "i:o:" + name }
    func tag(_ tag: String) -> String { prefix + "i:t:" + tag }
    var statistics: String { prefix + "stats" }
    func flight(_ digest: CacheKey.Digest) -> String { prefix + "f:" + digest.hex }
    var flightChannel: String { prefix + "c:flights" }
    var removalChannel: String { prefix + "c:removals" }

    /// Every index an entry belongs to.
    func indexes(of entry: CacheEntry) -> [String] {
        [all, partition(entry.partition), operation(entry.name)] + entry.tags.map(tag)
    }

    /// The one index to read the candidates of `selection` from (the narrowest it names).
    func index(for selection: CacheSelection) -> String {
        if let partition = selection.partition { return self.partition(partition) }
        if let tag = selection.tag { return self.tag(tag) }
        if let operation = selection.operation { return self.operation(operation) }
        return all
    }
}
