import Foundation
#if canImport(SQLite3)
import SQLite3
#else
import CSQLite
#endif

/// A prepared statement: bind, step, read columns, reset. Owned by its `SQLiteConnection`.
final class SQLiteStatement {
    /// SQLite copies bound values right away (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private var handle: OpaquePointer?
    let sql: String

    init(_ handle: OpaquePointer, sql: String) {
        self.handle = handle
        self.sql = sql
    }

    func finalize() {
        sqlite3_finalize(handle)
        handle = nil
    }

    /// Clears the bindings and rewinds, ready for the next use.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Steps once: `true` when a row is ready, `false` when done.
    func step() throws(SQLiteError) -> Bool {
        let status = sqlite3_step(handle)
        if status == SQLITE_ROW { return true }
        if status == SQLITE_DONE { return false }
        let db = sqlite3_db_handle(handle)
        throw SQLiteError(code: db.map { sqlite3_extended_errcode($0) } ?? status,
                          message: db.map { String(cString: sqlite3_errmsg($0)) } ?? "unknown error", context: sql)
    }

    /// Steps until done (for statements that return no rows).
    func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    // MARK: Binding (indexes start at 1)

    func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(handle, index, Int64(value)) }

    func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }

    func bind(_ index: Int32, _ value: Double?) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    /// Binds text with its exact length, so that NUL characters inside it survive.
    func bind(_ index: Int32, _ value: String?) {
        guard var value else {
            sqlite3_bind_null(handle, index)
            return
        }
        value.withUTF8 { bytes in
            bindText(index, UnsafeRawBufferPointer(bytes))
        }
    }

    /// Binds UTF-8 bytes as text.
    func bindText(_ index: Int32, _ bytes: UnsafeRawBufferPointer) {
        if let base = bytes.baseAddress, bytes.count > 0 {
            sqlite3_bind_text(handle, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                              SQLiteStatement.transient)
        } else {
            sqlite3_bind_text(handle, index, "", 0, SQLiteStatement.transient)
        }
    }

    /// Binds bytes as a blob (an empty blob, not NULL, when there are none).
    func bind(_ index: Int32, _ value: Data) {
        _ = value.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress, bytes.count > 0 {
                sqlite3_bind_blob(handle, index, base, Int32(bytes.count), SQLiteStatement.transient)
            } else {
                sqlite3_bind_zeroblob(handle, index, 0)
            }
        }
    }

    // MARK: Columns (indexes start at 0)

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }

    /// The column as text with its exact length (NUL characters kept); `nil` for NULL.
    func text(_ column: Int32) -> String? {
        guard !isNull(column) else { return nil }
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column's bytes (empty for NULL).
    func data(_ column: Int32) -> Data {
        guard let bytes = sqlite3_column_blob(handle, column) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(handle, column)))
    }

    /// Runs `body` over the column's bytes without copying them (valid only inside `body`).
    func withBytes<Result>(_ column: Int32, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        guard let bytes = sqlite3_column_blob(handle, column) else {
            return body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return body(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))))
    }
}
