import Foundation
import Gateway

extension SQLiteCacheDatabase {
    static let upsert = """
        INSERT INTO entries(key, kind, name, stats_name, partition_subject, operation, operation_name, variables,
            method, endpoint, vary, tags, status, headers, body, size, stored_at, expires_at, etag, last_modified,
            hits, last_access, checksum)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, 0, ?21, ?22)
        ON CONFLICT(key) DO UPDATE SET kind = excluded.kind, name = excluded.name, stats_name = excluded.stats_name,
            partition_subject = excluded.partition_subject, operation = excluded.operation,
            operation_name = excluded.operation_name, variables = excluded.variables, method = excluded.method,
            endpoint = excluded.endpoint, vary = excluded.vary, tags = excluded.tags, status = excluded.status,
            headers = excluded.headers, body = excluded.body, size = excluded.size, stored_at = excluded.stored_at,
            expires_at = excluded.expires_at, etag = excluded.etag, last_modified = excluded.last_modified,
            last_access = excluded.last_access, checksum = excluded.checksum
        """

    /// An entry's columns (`CacheStoredFields`, shared with the other database stores), encoded
    /// before the lock is taken.
    struct Row {
        let fields: CacheStoredFields

        var entry: CacheEntry { fields.entry }
        var size: Int { fields.size }
        var statisticsName: String { fields.statisticsName }

        init(_ entry: CacheEntry) {
            fields = CacheStoredFields(entry)
        }

        func bind(to statement: SQLiteStatement) {
            let components = entry.key.components
            SQLiteCacheDatabase.bindKey(statement, 1, entry.key.digest)
            statement.bind(2, components.kind.rawValue)
            statement.bind(3, components.name)
            statement.bind(4, statisticsName)
            statement.bind(5, components.partition.subject)
            statement.bind(6, components.operation)
            statement.bind(7, components.operationName)
            statement.bind(8, components.variables)
            statement.bind(9, components.method)
            statement.bind(10, components.endpoint)
            statement.bind(11, fields.vary)
            statement.bind(12, fields.tags)
            statement.bind(13, entry.status)
            statement.bind(14, fields.headers)
            statement.bind(15, entry.body)
            statement.bind(16, size)
            statement.bind(17, entry.storedAt.timeIntervalSince1970)
            statement.bind(18, entry.expiresAt?.timeIntervalSince1970)
            statement.bind(19, entry.etag)
            statement.bind(20, entry.lastModified)
            statement.bind(21, entry.storedAt.timeIntervalSince1970)
            statement.bind(22, Int(fields.storedChecksum))
        }
    }

    /// Stores the entry in one transaction, evicting to make room first.
    ///
    /// Pending touches are written first, so that eviction sees every entry's last use; pending
    /// counters go with the write when they are due (see `flushIfDue`).
    ///
    /// - Returns: `false` when the entry is too large for the store (any old entry of its key is removed).
    func put(_ entry: CacheEntry) throws -> Bool {
        guard !readOnly else { throw readOnlyError("store an entry") }
        let row = Row(entry)
        return try perform("write", fallback: false, retry: true) { session, connection in
            var counters = CacheCounterTable()
            let pageSize = session.pageSize
            let writeCounters = isFlushDue(session)
            let stored = try connection.transaction { () -> Bool in
                counters = CacheCounterTable()
                try writeTouches(session, connection)
                let pages = row.size / max(pageSize - 100, 412) + 2
                let fits = try row.size <= maximumEntryBytes
                    && makeRoom(connection, pages: pages, pageSize: pageSize, now: row.entry.storedAt,
                                counters: &counters)
                if fits {
                    let upsert = try connection.statement(SQLiteCacheDatabase.upsert)
                    row.bind(to: upsert)
                    try upsert.run()
                    counters.update(row.statisticsName) { $0.writes += 1 }
                } else {
                    try deleteKey(connection, row.entry.key.digest)
                }
                if writeCounters {
                    try self.writeCounters(session.pendingCounters, connection)
                    try self.writeCounters(counters, connection)
                }
                return fits
            }
            session.pendingTouches.removeAll(keepingCapacity: true)
            if writeCounters {
                session.pendingCounters.removeAll()
                session.lastFlush = .now
            } else {
                session.pendingCounters.add(counters)
            }
            if counters.totals.evictions > 0 {
                try shrinkIfNeeded(connection, pageSize: pageSize)
            }
            return stored
        }
    }

    /// Counts a hit (or stale hit) of `key` at `now`, to be written with the next batch.
    func touch(_ key: CacheKey, now: Date, stale: Bool) throws {
        guard !readOnly else { throw readOnlyError("record a hit") }
        try perform("write", fallback: ()) { session, connection in
            SQLiteCacheDatabase.addTouch(&session, key.digest, at: now.timeIntervalSince1970)
            session.pendingCounters.update(key.components.statisticsName) { counters in
                if stale { counters.staleHits += 1 } else { counters.hits += 1 }
            }
            flushIfDue(&session, connection)
        }
    }

    /// Removes the selected entries. Removing a partition or everything then rewrites the files so
    /// that no byte of the removed entries remains in them.
    func remove(_ selection: CacheSelection) throws -> Int {
        guard !readOnly else { throw readOnlyError("remove entries") }
        let filter = SQLiteSelection(selection)
        guard !filter.matchesNothing else { return 0 }
        return try perform("remove entries from", fallback: 0) { session, connection in
            let removed = try connection.transaction { () -> Int in
                try writePending(session, connection)
                let statement = try connection.statement("DELETE FROM entries\(filter.whereClause)")
                filter.bind(to: statement)
                try statement.run()
                return connection.changes
            }
            session.clearPending()
            session.lastFlush = .now
            if selection.partition != nil || selection.selectsAll {
                try scrub(connection)
            } else {
                try shrinkIfNeeded(connection, pageSize: session.pageSize)
            }
            return removed
        }
    }

    /// Rewrites the database without free space and empties the write-ahead log.
    func vacuum() throws {
        guard !readOnly else { throw readOnlyError("vacuum") }
        try perform("vacuum", fallback: ()) { session, connection in
            try flush(&session, connection)
            try scrub(connection)
        }
    }

    /// Writes the pending counters now.
    func flush() throws {
        guard !readOnly else { return }
        try perform("write", fallback: ()) { session, connection in try flush(&session, connection) }
    }

    // MARK: Pending counters

    static func addTouch(_ session: inout Session, _ digest: CacheKey.Digest, at now: Double) {
        if var touch = session.pendingTouches[digest] {
            touch.hits += 1
            touch.lastAccess = max(touch.lastAccess, now)
            session.pendingTouches[digest] = touch
        } else {
            session.pendingTouches[digest] = PendingTouch(hits: 1, lastAccess: now)
        }
    }

    /// Whether pending counts should be written now: there are many, or the last write is over a
    /// second old (or there was none yet, so that a short-lived process keeps its first counts).
    func isFlushDue(_ session: Session) -> Bool {
        session.pendingTouches.count >= SQLiteCacheDatabase.flushThreshold
            || session.lastFlush.map { $0.duration(to: .now) >= SQLiteCacheDatabase.flushInterval } ?? true
    }

    /// Writes the pending counts when they are due, without waiting for another process's lock
    /// (reads must not wait on a write that only counts). A failure keeps them for the next time.
    func flushIfDue(_ session: inout Session, _ connection: SQLiteConnection) {
        guard isFlushDue(session) else { return }
        do {
            try connection.withoutWaiting { try flush(&session, connection) }
        } catch {
            if session.pendingTouches.count > 16 * SQLiteCacheDatabase.flushThreshold { session.clearPending() }
        }
    }

    /// Writes the pending counts in one transaction.
    func flush(_ session: inout Session, _ connection: SQLiteConnection) throws {
        session.lastFlush = .now
        guard session.hasPending else { return }
        try connection.transaction { try writePending(session, connection) }
        session.clearPending()
    }

    /// Writes the pending counts (inside the caller's transaction).
    func writePending(_ session: Session, _ connection: SQLiteConnection) throws {
        try writeTouches(session, connection)
        try writeCounters(session.pendingCounters, connection)
    }

    /// Writes the pending hits and last uses of entries (inside the caller's transaction).
    func writeTouches(_ session: Session, _ connection: SQLiteConnection) throws {
        if !session.pendingTouches.isEmpty {
            let touch = try connection.statement(
                "UPDATE entries SET hits = hits + ?2, last_access = max(last_access, ?3) WHERE key = ?1")
            for (digest, pending) in session.pendingTouches {
                SQLiteCacheDatabase.bindKey(touch, 1, digest)
                touch.bind(2, pending.hits)
                touch.bind(3, pending.lastAccess)
                try touch.run()
            }
        }
    }

    /// Adds counters to the `stats` table. Past `CacheCounterTable.maximumNames` rows, new names
    /// are counted under `(other)`.
    func writeCounters(_ counters: CacheCounterTable, _ connection: SQLiteConnection) throws {
        guard !counters.isEmpty else { return }
        let rows = try connection.integer("SELECT count(*) FROM stats")
        let exists = try connection.statement("SELECT 1 FROM stats WHERE name = ?1")
        let upsert = try connection.statement("""
            INSERT INTO stats(name, hits, misses, stale_hits, writes, evictions) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT(name) DO UPDATE SET hits = hits + excluded.hits, misses = misses + excluded.misses,
                stale_hits = stale_hits + excluded.stale_hits, writes = writes + excluded.writes,
                evictions = evictions + excluded.evictions
            """)
        for (name, delta) in counters.counters where !delta.isZero {
            var target = name
            if rows >= CacheCounterTable.maximumNames {
                exists.bind(1, name)
                let known = try exists.step()
                exists.reset()
                if !known { target = CacheCounterTable.overflowName }
            }
            upsert.bind(1, target)
            upsert.bind(2, delta.hits)
            upsert.bind(3, delta.misses)
            upsert.bind(4, delta.staleHits)
            upsert.bind(5, delta.writes)
            upsert.bind(6, delta.evictions)
            try upsert.run()
        }
    }

    /// Deletes an entry whose stored bytes no longer match their checksum (a read-only store
    /// leaves it), and warns once.
    func removeDamaged(_ key: CacheKey, _ connection: SQLiteConnection) throws {
        if !readOnly { try deleteKey(connection, key.digest) }
        let outcome = readOnly ? "it was not served" : "it was deleted, and the request is answered as on a miss"
        warn(CacheWarning("a cached response of \(key.components.name) no longer matched its checksum (its stored "
                          + "bytes were damaged); " + outcome, path: path))
    }

    private func deleteKey(_ connection: SQLiteConnection, _ digest: CacheKey.Digest) throws {
        let delete = try connection.statement("DELETE FROM entries WHERE key = ?1")
        SQLiteCacheDatabase.bindKey(delete, 1, digest)
        try delete.run()
    }
}
