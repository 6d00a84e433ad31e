import Foundation
import Gateway

/// A cache store in a SQLite database file: entries survive restarts, within a byte limit.
///
/// - The file and its `-wal`/`-shm` companions are 0600, in a directory created 0700.
/// - WAL journal, `synchronous=NORMAL`, a 5 s busy timeout; one writing connection per file in
///   this process (stores made for one path share it), prepared statements reused.
/// - The limit counts the files on disk, write-ahead log included: least recently used entries
///   (expired ones first) are evicted to stay under it.
/// - A damaged file (a garbage header, a damaged page) is deleted with its companions and
///   created again empty, with one warning; the operation that met the damage answers as a miss.
/// - Every entry carries a checksum of its stored status, header text and body, checked on
///   every read: an entry whose bytes changed (which `PRAGMA integrity_check` cannot see) is
///   deleted with one warning and read as a miss. A database of the schema before checksums
///   loses its entries when it is opened read-write.
/// - Statistics live in the database, where `gateway cache stats` reads them. Hits are written
///   in batches (at the latest with the next write, or a second after the last batch); call
///   `flush()` before the process exits to keep the last ones.
/// - Removing a partition or everything leaves no byte of the removed entries in the files.
/// - `.readOnly` opens with `SQLITE_OPEN_READONLY`: it changes nothing, counts nothing, and never
///   disturbs a process writing the same file.
///
/// ```swift
/// let store = try SQLiteCacheStore(path: "/home/me/.cache/gateway/cache.sqlite", byteLimit: 50 << 20)
/// let cache = LayeredCacheStore(memory: MemoryCacheStore(), back: store)
/// ```
public final class SQLiteCacheStore: CacheStore {
    /// How a store opens its file.
    public enum Mode: Sendable, Hashable {
        /// Reads and writes (creating the file when missing).
        case readWrite
        /// Reads only; never writes, never deletes, never creates.
        case readOnly
    }

    /// The default byte limit: 64 MiB.
    public static let defaultByteLimit = 64 * 1024 * 1024

    let database: SQLiteCacheDatabase

    /// The database file.
    public var path: String { database.path }
    /// How the file was opened.
    public let mode: Mode
    /// The most bytes the database files may take on disk, write-ahead log included.
    public var byteLimit: Int { database.byteLimit }

    /// Opens (or creates) the database at `path`.
    ///
    /// A read-write store shares the connection of any other read-write store open on the same
    /// file in this process; the first one's limit and warning handler then apply.
    ///
    /// - Parameters:
    ///   - path: the database file; its directory is created (0700) when missing.
    ///   - byteLimit: the most bytes the files may take on disk.
    ///   - maximumEntryBytes: the largest entry stored; by default an eighth of the limit.
    ///   - mode: `.readWrite`, or `.readOnly` for inspection.
    ///   - onWarning: receives the warnings the store recovers from (a damaged file that was
    ///     rebuilt, a damaged entry that was deleted); by default printed on standard error. It runs while the store is busy, so it
    ///     must not use the store.
    /// - Throws: `GatewayError` of kind `.cache` when the file cannot be opened or created, is
    ///   another application's database or was written by a newer Gateway; read-only, also when
    ///   it is missing or damaged.
    public init(path: String, byteLimit: Int = SQLiteCacheStore.defaultByteLimit, maximumEntryBytes: Int? = nil,
                mode: Mode = .readWrite,
                onWarning: @escaping @Sendable (CacheWarning) -> Void = CacheWarning.printToStandardError) throws {
        let resolved = SQLiteRegistry.resolve(path)
        self.mode = mode
        let make = {
            try SQLiteCacheDatabase(path: resolved, readOnly: mode == .readOnly, byteLimit: byteLimit,
                                    maximumEntryBytes: maximumEntryBytes, warn: onWarning)
        }
        database = mode == .readOnly ? try make() : try SQLiteRegistry.database(path: resolved, make: make)
    }

    /// The entry of `key`, fresh or expired; a hit, stale hit or miss is counted (not when read-only).
    public func get(_ key: CacheKey, now: Date) async throws -> CacheEntry? {
        try database.get(key, now: now)
    }

    /// Stores `entry` in one transaction, evicting to make room first.
    @discardableResult
    public func put(_ entry: CacheEntry) async throws -> Bool {
        try database.put(entry)
    }

    /// Counts a hit (or stale hit) of `key` served by a store in front of this one.
    public func touch(_ key: CacheKey, now: Date, stale: Bool) async throws {
        try database.touch(key, now: now, stale: stale)
    }

    /// Removes the selected entries; a partition or everything is scrubbed from the files.
    @discardableResult
    public func remove(_ selection: CacheSelection) async throws -> Int {
        try database.remove(selection)
    }

    /// The selected entries, most recently used first.
    public func list(_ selection: CacheSelection, includeBodies: Bool) async throws -> [CacheRecord] {
        try database.list(selection, includeBodies: includeBodies)
    }

    /// The statistics kept in the database, with what it holds and its size on disk.
    public func statistics() async throws -> CacheStatistics {
        try database.statistics()
    }

    /// Writes the counts of recent hits that are still pending.
    ///
    /// - Throws: `GatewayError` of kind `.cache` when the database cannot be written.
    public func flush() async throws {
        try database.flush()
    }

    /// Runs `PRAGMA integrity_check`, then checks every entry's bytes against its checksum.
    ///
    /// - Returns: the problems found; empty when the database is sound (or has no tables yet).
    /// - Throws: `GatewayError` of kind `.cache` when the file cannot be opened at all.
    public func verify() async throws -> [String] {
        try database.verify()
    }

    /// Rewrites the database without free pages and empties its write-ahead log.
    ///
    /// - Throws: `GatewayError` of kind `.cache` when read-only or when the database cannot be written.
    public func vacuum() async throws {
        try database.vacuum()
    }

    /// `get` without suspending, for benchmarks.
    package func getNow(_ key: CacheKey, now: Date) throws -> CacheEntry? {
        try database.get(key, now: now)
    }

    /// `put` without suspending, for benchmarks.
    @discardableResult
    package func putNow(_ entry: CacheEntry) throws -> Bool {
        try database.put(entry)
    }

    /// The size of the database files on disk now, write-ahead log and shared memory included.
    public var diskBytes: Int { database.files.totalSize }

    /// The files of the database at `path`: the file itself, `-wal`, `-shm` and `-journal`.
    public static func databaseFiles(forPath path: String) -> [String] { SQLiteFiles(path: path).all }

    /// The cache path used when none is configured: `$XDG_CACHE_HOME/gateway/cache.sqlite`, else
    /// `~/.cache/gateway/cache.sqlite` (on Apple platforms `~/Library/Caches/Gateway/cache.sqlite`).
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let home = environment["HOME"] ?? NSHomeDirectory()
        #if canImport(Darwin)
        return home + "/Library/Caches/Gateway/cache.sqlite"
        #else
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { return cache + "/gateway/cache.sqlite" }
        return home + "/.cache/gateway/cache.sqlite"
        #endif
    }
}
