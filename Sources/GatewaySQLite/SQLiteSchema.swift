/// The cache database's schema and its migrations.
///
/// `PRAGMA user_version` holds the schema version and `PRAGMA application_id` marks the file as
/// a Gateway cache. Each migration runs in one transaction with the version change, so a database
/// is always at one version or the next, never between. Columns hold every key component and
/// the entry's metadata, so that `gateway cache` can list, explain and compare entries with SQL.
/// Only look-ups on the hot path and eviction have indexes (each index costs every write a page);
/// selections by name, tag or partition scan the table, which is small.
enum SQLiteSchema {
    /// `GWYC`: marks a Gateway cache database.
    static let applicationID = 0x4757_5943

    /// The newest schema version this build writes.
    static var latestVersion: Int { migrations.count }

    /// Migration `n` (1-based) takes the database from version `n - 1` to `n`.
    static let migrations: [String] = [
        """
        CREATE TABLE entries (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,            -- SHA-256 of the components, 64 hex digits
            kind TEXT NOT NULL,                  -- 'graphql' or 'rest'
            name TEXT NOT NULL,                  -- operation name, or the REST URL
            stats_name TEXT NOT NULL,            -- what statistics count it under
            partition_subject TEXT,              -- the credential subject; NULL is anonymous
            operation TEXT,                      -- GraphQL: normalized operation text
            operation_name TEXT,                 -- GraphQL: operation name (NULL when anonymous)
            variables TEXT,                      -- GraphQL: canonical variables JSON
            method TEXT,                         -- REST: method
            endpoint TEXT NOT NULL,              -- GraphQL endpoint URL, or REST URL with sorted query
            vary TEXT NOT NULL DEFAULT '[]',     -- REST: JSON [[name, value-or-null], ...]
            tags TEXT NOT NULL DEFAULT '[]',     -- JSON array of tag strings
            status INTEGER NOT NULL,
            headers TEXT NOT NULL,               -- 'Name: value' lines, CRLF-terminated
            body BLOB NOT NULL,
            size INTEGER NOT NULL,               -- bytes counted against the limit
            stored_at REAL NOT NULL,             -- seconds since 1970
            expires_at REAL,                     -- seconds since 1970; NULL never expires
            etag TEXT,
            last_modified TEXT,
            hits INTEGER NOT NULL DEFAULT 0,
            last_access REAL NOT NULL            -- seconds since 1970
        );
        CREATE INDEX entries_by_last_access ON entries(last_access);
        CREATE TABLE stats (
            name TEXT PRIMARY KEY,               -- operation name, or 'METHOD url-without-query'
            hits INTEGER NOT NULL DEFAULT 0,
            misses INTEGER NOT NULL DEFAULT 0,
            stale_hits INTEGER NOT NULL DEFAULT 0,
            writes INTEGER NOT NULL DEFAULT 0,
            evictions INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE meta (
            name TEXT PRIMARY KEY,
            value TEXT
        );
        INSERT INTO meta(name, value) VALUES ('created_at', strftime('%Y-%m-%dT%H:%M:%SZ', 'now'));
        """,
        // Version 2: every entry carries a checksum of what it serves, checked when it is read.
        // Entries of version 1 have none and cannot be told sound, so they go (a cache refills).
        """
        DELETE FROM entries;
        ALTER TABLE entries ADD COLUMN checksum INTEGER NOT NULL DEFAULT 0;  -- CacheChecksum of status, headers, body
        """,
    ]

    /// The first version whose entries carry a checksum.
    static let checksumVersion = 2

    /// Brings the database to `latestVersion`.
    ///
    /// - Throws: `SQLiteSchemaError` when the file is another application's database or was
    ///   written by a newer Gateway; `SQLiteError` when SQLite fails.
    static func migrate(_ connection: SQLiteConnection) throws {
        var version = try connection.integer("PRAGMA user_version")
        guard version < latestVersion else {
            try check(connection, version: version)
            return
        }
        try connection.transaction {
            // Read again inside the transaction: another process may have migrated meanwhile.
            version = try connection.integer("PRAGMA user_version")
            try check(connection, version: version)
            while version < latestVersion {
                try connection.execute(migrations[version])
                version += 1
            }
            try connection.execute("PRAGMA application_id = \(applicationID)")
            try connection.execute("PRAGMA user_version = \(version)")
        }
    }

    /// Refuses a database this build must not touch.
    static func check(_ connection: SQLiteConnection, version: Int) throws {
        if version > latestVersion { throw SQLiteSchemaError.newer(version: version) }
        let application = try connection.integer("PRAGMA application_id")
        if version == 0 {
            let tables = try connection.integer("SELECT count(*) FROM sqlite_master")
            if tables > 0 && application != applicationID { throw SQLiteSchemaError.foreign }
        } else if application != applicationID {
            throw SQLiteSchemaError.foreign
        }
    }
}

/// A database this build must not use.
enum SQLiteSchemaError: Error, CustomStringConvertible {
    /// Written by a newer Gateway with schema `version`.
    case newer(version: Int)
    /// Not a Gateway cache (another application's database).
    case foreign

    var description: String {
        switch self {
        case .newer(let version):
            "the cache database has schema version \(version), newer than this build knows "
                + "(\(SQLiteSchema.latestVersion)); use a newer gateway or another cache path"
        case .foreign:
            "the file is a SQLite database but not a Gateway cache; choose another cache path"
        }
    }
}
