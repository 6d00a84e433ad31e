import Foundation

/// Which entries an operation concerns: every condition that is set must hold.
///
/// ```swift
/// try await store.remove(.partition(.subject("user-1")))
/// try await store.remove(.tag("Track:42"))
/// let old = try await store.list(CacheSelection(operation: "GetTrack", expiredAt: .now))
/// ```
public struct CacheSelection: Sendable, Hashable {
    /// The entry with exactly this key.
    public var key: CacheKey.Digest?
    /// Entries whose hex key starts with this text (case-insensitive).
    public var keyPrefix: String?
    /// Entries whose name (operation name or URL) is this.
    public var operation: String?
    /// Entries carrying this tag.
    public var tag: String?
    /// Entries of this partition.
    public var partition: CachePartition?
    /// Entries expired at this moment.
    public var expiredAt: Date?

    /// Creates a selection; with no conditions it selects every entry.
    public init(key: CacheKey.Digest? = nil, keyPrefix: String? = nil, operation: String? = nil, tag: String? = nil,
                partition: CachePartition? = nil, expiredAt: Date? = nil) {
        self.key = key
        self.keyPrefix = keyPrefix?.lowercased()
        self.operation = operation
        self.tag = tag
        self.partition = partition
        self.expiredAt = expiredAt
    }

    /// Every entry.
    public static var all: CacheSelection { CacheSelection() }
    /// The entry of one key.
    public static func key(_ key: CacheKey) -> CacheSelection { CacheSelection(key: key.digest) }
    /// The entry of one digest.
    public static func digest(_ digest: CacheKey.Digest) -> CacheSelection { CacheSelection(key: digest) }
    /// Entries whose hex key starts with `prefix`.
    public static func keyPrefix(_ prefix: String) -> CacheSelection { CacheSelection(keyPrefix: prefix) }
    /// Entries of one operation name (or REST URL).
    public static func operation(_ name: String) -> CacheSelection { CacheSelection(operation: name) }
    /// Entries carrying `tag`.
    public static func tag(_ tag: String) -> CacheSelection { CacheSelection(tag: tag) }
    /// Entries of one partition.
    public static func partition(_ partition: CachePartition) -> CacheSelection { CacheSelection(partition: partition) }
    /// Entries expired at `now`.
    public static func expired(at now: Date) -> CacheSelection { CacheSelection(expiredAt: now) }

    /// Whether this selects every entry.
    public var selectsAll: Bool {
        key == nil && keyPrefix == nil && operation == nil && tag == nil && partition == nil && expiredAt == nil
    }

    /// Whether `entry` is selected.
    public func matches(_ entry: CacheEntry) -> Bool {
        if let key, entry.key.digest != key { return false }
        if let keyPrefix, !entry.key.hex.hasPrefix(keyPrefix) { return false }
        if let operation, entry.name != operation { return false }
        if let tag, !entry.tags.contains(tag) { return false }
        if let partition, entry.partition != partition { return false }
        if let expiredAt, entry.isFresh(at: expiredAt) { return false }
        return true
    }
}
