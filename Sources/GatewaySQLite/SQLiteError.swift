#if canImport(SQLite3)
import SQLite3
#else
import CSQLite
#endif

/// A failed SQLite call: the extended result code, SQLite's message and what was being done.
struct SQLiteError: Error, CustomStringConvertible {
    /// The extended result code.
    let code: Int32
    /// SQLite's message.
    let message: String
    /// What was being done: the SQL text or the name of the step.
    let context: String

    /// The primary result code (the low byte of the extended one).
    var primaryCode: Int32 { code & 0xff }

    /// Whether the database file is damaged or not a database at all.
    var isCorruption: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }

    /// Whether another connection held a lock for longer than the busy timeout.
    var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    var description: String { "SQLite error \(code) (\(message)) while \(context)" }
}
