#if canImport(SQLite3)
import SQLite3
#else
import CSQLite
#endif

/// The SQLite library version this build links against.
public let sqliteLibraryVersion: String = String(cString: sqlite3_libversion())

/// One SQLite connection with a cache of prepared statements.
///
/// Not thread-safe by itself: every use happens under the lock of the `SQLiteCacheDatabase` that
/// owns it (the connection is opened with `SQLITE_OPEN_NOMUTEX` for that reason).
final class SQLiteConnection {
    /// The busy timeout: how long a statement waits for another connection's lock.
    static let busyTimeoutMilliseconds: Int32 = 5000

    private(set) var handle: OpaquePointer?
    let path: String
    private var statements: [String: SQLiteStatement] = [:]

    /// Opens `path`.
    ///
    /// - Parameters:
    ///   - path: the database file.
    ///   - readOnly: `SQLITE_OPEN_READONLY`; otherwise read-write, creating the file when missing.
    init(path: String, readOnly: Bool) throws(SQLiteError) {
        self.path = path
        var flags = SQLITE_OPEN_NOMUTEX
        flags |= readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        var db: OpaquePointer?
        let status = sqlite3_open_v2(path, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            let code = db.map { sqlite3_extended_errcode($0) } ?? status
            sqlite3_close_v2(db)
            throw SQLiteError(code: code, message: message, context: "opening the database")
        }
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, SQLiteConnection.busyTimeoutMilliseconds)
        handle = db
    }

    deinit { close() }

    /// Finalizes every statement and closes the connection; later calls fail.
    func close() {
        for statement in statements.values { statement.finalize() }
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs SQL text that returns no rows (one or more statements).
    func execute(_ sql: String) throws(SQLiteError) {
        guard let handle else { throw closedError(sql) }
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, context: sql)
        }
    }

    /// The prepared statement for `sql`, prepared on first use and reused after.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        guard let handle else { throw closedError(sql) }
        var prepared: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard status == SQLITE_OK, let prepared else {
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)),
                              context: sql)
        }
        let statement = SQLiteStatement(prepared, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// The integer the first column of the first row of `sql` holds (a `PRAGMA` or `count(*)`).
    func integer(_ sql: String) throws(SQLiteError) -> Int {
        let statement = try statement(sql)
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return statement.int(0)
    }

    /// Runs `body` in a `BEGIN IMMEDIATE` transaction: committed when it returns, rolled back when it throws.
    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try statement("BEGIN IMMEDIATE").run()
        do {
            let result = try body()
            try statement("COMMIT").run()
            return result
        } catch {
            try? statement("ROLLBACK").run()
            throw error
        }
    }

    /// Runs `body` with no busy timeout: a statement that would wait for another connection's
    /// lock fails with `SQLITE_BUSY` at once instead.
    func withoutWaiting<Result>(_ body: () throws -> Result) rethrows -> Result {
        sqlite3_busy_timeout(handle, 0)
        defer { sqlite3_busy_timeout(handle, SQLiteConnection.busyTimeoutMilliseconds) }
        return try body()
    }

    /// Rows changed by the last statement.
    var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

    private func closedError(_ context: String) -> SQLiteError {
        SQLiteError(code: SQLITE_MISUSE, message: "the connection is closed", context: context)
    }
}
