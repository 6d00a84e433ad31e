import Foundation

/// An entry as a store lists it: the entry with what the store knows about its use.
public struct CacheRecord: Sendable, Hashable {
    /// The entry; its body is empty when the listing was asked for without bodies.
    public var entry: CacheEntry
    /// The entry's size as counted against the byte limit (`CacheEntry.byteCost` when stored).
    public var size: Int
    /// How often the entry was served.
    public var hits: Int
    /// When the entry was last served or stored.
    public var lastAccess: Date

    /// Creates a record.
    public init(entry: CacheEntry, size: Int, hits: Int, lastAccess: Date) {
        self.entry = entry
        self.size = size
        self.hits = hits
        self.lastAccess = lastAccess
    }
}
