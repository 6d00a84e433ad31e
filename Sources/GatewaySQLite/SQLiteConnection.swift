#if canImport(SQLite3)
import SQLite3
#else
import CSQLite
#endif

/// The SQLite library version this build links against.
public let sqliteLibraryVersion: String = String(cString: sqlite3_libversion())
