import Foundation

/// Where cached responses live: a memory store, a SQLite store, or one in front of the other.
///
/// A store keeps entries by key, counts how it is used, and stays under a byte limit by evicting
/// the least recently used entries. It applies no caching rules: which responses to store, for
/// how long, and whether a stale entry may answer are the response cache's decisions.
///
/// `get` returns expired entries too (counted as stale hits) so that they can be revalidated or
/// answer when the network fails; check `CacheEntry.isFresh(at:)`. It never returns an entry
/// whose bytes changed since they were stored: the memory and SQLite stores keep a checksum of
/// each entry's status, header fields and body, and answer a damaged entry with a miss (removing
/// it, with one warning).
///
/// Implementing one (a store that keeps nothing):
/// ```swift
/// struct NullStore: CacheStore {
///     var byteLimit: Int { 0 }
///     func get(_ key: CacheKey, now: Date) async throws -> CacheEntry? { nil }
///     func put(_ entry: CacheEntry) async throws -> Bool { false }
///     func touch(_ key: CacheKey, now: Date, stale: Bool) async throws {}
///     func remove(_ selection: CacheSelection) async throws -> Int { 0 }
///     func list(_ selection: CacheSelection, includeBodies: Bool) async throws -> [CacheRecord] { [] }
///     func statistics() async throws -> CacheStatistics { CacheStatistics() }
/// }
/// ```
public protocol CacheStore: Sendable {
    /// The most bytes the store keeps (see `CacheEntry.byteCost`; stores with files count those).
    var byteLimit: Int { get }

    /// The entry of `key`, fresh or expired, or `nil`.
    ///
    /// Counts a hit, a stale hit (the entry expired at `now`) or a miss, and marks a found entry
    /// as used at `now` (its hit count and its place in the eviction order). An entry whose bytes
    /// were damaged is a miss.
    ///
    /// - Parameters:
    ///   - key: the key to look up.
    ///   - now: the time to judge expiry by.
    /// - Returns: the entry, or `nil` on a miss.
    /// - Throws: `GatewayError` of kind `.cache` when the store cannot be read.
    func get(_ key: CacheKey, now: Date) async throws -> CacheEntry?

    /// Stores `entry`, replacing any entry of its key, evicting others as needed to stay under the limit.
    ///
    /// - Returns: whether the entry was stored; an entry too large for the store is not.
    /// - Throws: `GatewayError` of kind `.cache` when the store cannot be written; the store then
    ///   holds either the old entry or none, never a part of the new one.
    @discardableResult
    func put(_ entry: CacheEntry) async throws -> Bool

    /// Records that the entry of `key` was served at `now` without a `get` of this store (a store
    /// in front of this one answered): one more hit (or stale hit), and its last use moves to `now`.
    ///
    /// - Throws: `GatewayError` of kind `.cache` when the store cannot be written.
    func touch(_ key: CacheKey, now: Date, stale: Bool) async throws

    /// Removes the selected entries.
    ///
    /// Removing a partition or everything leaves no trace of the removed data in the store's files.
    ///
    /// - Returns: how many entries were removed.
    /// - Throws: `GatewayError` of kind `.cache` when the store cannot be written.
    @discardableResult
    func remove(_ selection: CacheSelection) async throws -> Int

    /// The selected entries, most recently used first, with their sizes and use.
    ///
    /// - Parameters:
    ///   - selection: which entries.
    ///   - includeBodies: whether to read the bodies; without them `entry.body` is empty.
    /// - Throws: `GatewayError` of kind `.cache` when the store cannot be read.
    func list(_ selection: CacheSelection, includeBodies: Bool) async throws -> [CacheRecord]

    /// How the store has been used, and what it holds.
    ///
    /// - Throws: `GatewayError` of kind `.cache` when the store cannot be read.
    func statistics() async throws -> CacheStatistics

    /// What makes identical requests on several instances sharing this store make one network
    /// call between them; `nil` (the default) for a store that only this instance uses.
    var flightCoordinator: (any CacheFlightCoordinator)? { get }
}

extension CacheStore {
    /// Records a fresh hit of `key` at `now` (see `touch(_:now:stale:)`).
    public func touch(_ key: CacheKey, now: Date) async throws {
        try await touch(key, now: now, stale: false)
    }

    /// The selected entries with their bodies, most recently used first.
    public func list(_ selection: CacheSelection = .all) async throws -> [CacheRecord] {
        try await list(selection, includeBodies: true)
    }
}
