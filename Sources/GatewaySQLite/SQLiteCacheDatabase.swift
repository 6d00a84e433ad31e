import Foundation
import Gateway
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The shared core of the `SQLiteCacheStore`s of one path in one process: one connection behind
/// one lock, its pending counters, and the recovery from a damaged file.
///
/// Every method runs synchronously under the lock and never awaits. Hits and touches are counted
/// in memory and written in batches (with the next write, or when the last batch is more than a
/// second old), so that a hit costs a read and no write.
final class SQLiteCacheDatabase: Sendable {
    struct PendingTouch {
        var hits: Int
        var lastAccess: Double
    }

    /// What the lock guards.
    struct Session {
        var connection: SQLiteConnection?
        /// False for a read-only open of a file without tables yet (an empty cache).
        var hasSchema = false
        /// False for a read-only open of a file of a version before entries had checksums: its
        /// entries are listed, never served.
        var hasChecksums = false
        var pageSize = 4096
        var pendingTouches: [CacheKey.Digest: PendingTouch] = [:]
        var pendingCounters = CacheCounterTable()
        /// When counters were last written; `nil` before the first time, so the first hit writes at once.
        var lastFlush: ContinuousClock.Instant?

        var hasPending: Bool { !pendingTouches.isEmpty || !pendingCounters.isEmpty }

        mutating func clearPending() {
            pendingTouches.removeAll(keepingCapacity: true)
            pendingCounters.removeAll()
        }
    }

    /// Pending counts are written when there are this many touches, or when the last write is
    /// older than `flushInterval`.
    static let flushThreshold = 512
    static let flushInterval = Duration.seconds(1)

    let files: SQLiteFiles
    let readOnly: Bool
    let byteLimit: Int
    let maximumEntryBytes: Int
    let warn: @Sendable (CacheWarning) -> Void
    let session: Locked<Session>

    var path: String { files.path }

    /// Opens (and for read-write, creates or migrates, or rebuilds when damaged) the database.
    init(path: String, readOnly: Bool, byteLimit: Int, maximumEntryBytes: Int?,
         warn: @escaping @Sendable (CacheWarning) -> Void) throws {
        self.files = SQLiteFiles(path: path)
        self.readOnly = readOnly
        self.byteLimit = max(0, byteLimit)
        self.maximumEntryBytes = min(self.byteLimit, max(0, maximumEntryBytes ?? self.byteLimit / 8))
        self.warn = warn
        self.session = Locked(Session())
        try perform("open", fallback: ()) { _, _ in }
    }

    deinit {
        session.withLock { session in
            if let connection = session.connection, !readOnly, session.hasPending {
                if (try? connection.transaction({ try writePending(session, connection) })) != nil {
                    session.clearPending()
                }
            }
            session.connection?.close()
            session.connection = nil
        }
    }

    // MARK: Budget

    /// The write-ahead log's share of the limit: a sixteenth, between 64 KiB and 4 MiB.
    var walBytes: Int { min(max(byteLimit / 16, 64 * 1024), 4 * 1024 * 1024) }

    /// Pages the database file may use: the limit less twice the log's share (the log grows past
    /// its share by the transaction that triggers a checkpoint, evictions included) and room for
    /// the `-shm` file.
    func budgetPages(pageSize: Int) -> Int { max((byteLimit - 2 * walBytes - 64 * 1024) / max(pageSize, 512), 0) }

    // MARK: Running operations

    /// Runs `body` with the open connection under the lock.
    ///
    /// A damaged database (at open or during `body`) is deleted with its companion files and
    /// created again, with one warning; `body` then runs again when `retry`, else `fallback` is
    /// returned. Read-only stores (and `repair: false`) never delete anything: damage is an error
    /// there. Every error
    /// leaves as a `GatewayError` of kind `.cache`.
    func perform<Result>(_ action: String, fallback: Result, retry: Bool = false, repair: Bool = true,
                         _ body: (inout Session, SQLiteConnection) throws -> Result) throws -> Result {
        try session.withLock { session in
            do {
                return try body(&session, try connection(&session))
            } catch let error as SQLiteError where error.isCorruption && !readOnly && repair {
                do {
                    try rebuild(&session, after: error)
                    return retry ? try body(&session, try connection(&session)) : fallback
                } catch {
                    throw gatewayError(error, action: action)
                }
            } catch {
                throw gatewayError(error, action: action)
            }
        }
    }

    /// The open connection, opening (and preparing) it first when needed.
    private func connection(_ session: inout Session) throws -> SQLiteConnection {
        if let connection = session.connection { return connection }
        if readOnly {
            guard files.exists else { throw SQLiteFileError("there is no cache database", path: path, errno: ENOENT) }
            let connection = try SQLiteConnection(path: path, readOnly: true)
            let version = try connection.integer("PRAGMA user_version")
            try SQLiteSchema.check(connection, version: version)
            session.hasSchema = version > 0
            session.hasChecksums = version >= SQLiteSchema.checksumVersion
            session.pageSize = try connection.integer("PRAGMA page_size")
            session.connection = connection
            return connection
        }
        try files.prepare()
        let connection = try SQLiteConnection(path: path, readOnly: false)
        do {
            try configure(connection, session: &session)
        } catch {
            connection.close()
            throw error
        }
        session.hasSchema = true
        session.hasChecksums = true
        session.connection = connection
        return connection
    }

    private func configure(_ connection: SQLiteConnection, session: inout Session) throws {
        // The first statement reads the header: a garbage header fails here with SQLITE_NOTADB.
        // Another application's database, or a newer schema, is refused before anything is written.
        try SQLiteSchema.check(connection, version: connection.integer("PRAGMA user_version"))
        // Incremental vacuum (which lets removals shrink the file) can only be chosen before the
        // file's first page is written, so before the journal mode; on an existing file it does nothing.
        try connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = NORMAL")
        try connection.execute("PRAGMA secure_delete = ON")
        try connection.execute("PRAGMA temp_store = MEMORY")
        try SQLiteSchema.migrate(connection)
        let pageSize = try connection.integer("PRAGMA page_size")
        session.pageSize = pageSize
        try connection.execute("PRAGMA journal_size_limit = \(walBytes)")
        try connection.execute("PRAGMA wal_autocheckpoint = \(max(walBytes / max(pageSize, 512), 16))")
        let record = try connection.statement("INSERT OR REPLACE INTO meta(name, value) VALUES ('byte_limit', ?1)")
        record.bind(1, String(byteLimit))
        try record.run()
    }

    /// Deletes the damaged database and its companions, warns once, and opens a fresh one.
    private func rebuild(_ session: inout Session, after error: SQLiteError) throws {
        session.connection?.close()
        session.connection = nil
        session.pendingTouches.removeAll()
        let failures = files.delete()
        warn(CacheWarning(
            "the response cache database was damaged (\(error.message)); it was deleted and the cache starts empty",
            path: path))
        guard failures.isEmpty else {
            throw SQLiteFileError("could not delete the damaged cache database: \(failures.joined(separator: "; "))",
                                  path: path, errno: EIO)
        }
        _ = try connection(&session)
    }

    private func gatewayError(_ error: any Error, action: String) -> GatewayError {
        switch error {
        case let error as GatewayError:
            return error
        case let error as SQLiteError where error.isCorruption:
            return GatewayError(.cache, "the cache database at \(path) is damaged (\(error.message))",
                                fix: "open it read-write once (it is then rebuilt), or delete it", underlying: error)
        case let error as SQLiteError where error.isBusy:
            return GatewayError(.cache, "could not \(action) the cache database at \(path): another process held "
                                + "it locked for more than 5 seconds (\(error.message))", underlying: error)
        case let error as SQLiteError:
            return GatewayError(.cache, "could not \(action) the cache database at \(path): \(error.message)",
                                underlying: error)
        case let error as SQLiteSchemaError:
            return GatewayError(.cache, "\(path): \(error)", underlying: error)
        case let error as SQLiteFileError:
            return GatewayError(.cache, error.description,
                                fix: readOnly ? "check the path" : "check the path and its permissions",
                                underlying: error)
        default:
            return GatewayError(.cache, "could not \(action) the cache database at \(path): \(error)",
                                underlying: error)
        }
    }

    /// The error for a write through a read-only store.
    func readOnlyError(_ action: String) -> GatewayError {
        GatewayError(.cache, "cannot \(action): the cache database at \(path) was opened read-only",
                     fix: "open the store with mode .readWrite")
    }
}
