import Foundation
import Gateway

extension SQLiteCacheDatabase {
    static let selectHit = """
        SELECT status, headers, body, tags, stored_at, expires_at, etag, last_modified, checksum FROM entries
        WHERE key = ?1
        """

    static let listColumns = """
        key, kind, partition_subject, operation, operation_name, variables, method, endpoint, vary, tags, status,
        headers, stored_at, expires_at, etag, last_modified, size, hits, last_access
        """

    /// The entry of `key`, counting a hit, a stale hit or a miss (read-only stores count nothing).
    ///
    /// An entry whose stored status, header text or body no longer match their checksum is a
    /// miss, with one warning; a read-write store deletes it.
    func get(_ key: CacheKey, now: Date) throws -> CacheEntry? {
        try perform("read", fallback: nil) { session, connection in
            guard session.hasSchema, session.hasChecksums else { return nil }
            let statement = try connection.statement(SQLiteCacheDatabase.selectHit)
            SQLiteCacheDatabase.bindKey(statement, 1, key.digest)
            var entry: CacheEntry?
            if try statement.step() {
                if SQLiteCacheDatabase.checksumMatches(statement) {
                    entry = SQLiteCacheDatabase.decodeHit(statement, key: key)
                } else {
                    statement.reset()
                    try removeDamaged(key, connection)
                }
            }
            statement.reset()
            guard !readOnly else { return entry }
            let nowSeconds = now.timeIntervalSince1970
            session.pendingCounters.update(key.components.statisticsName) { counters in
                if let entry {
                    if entry.isFresh(at: now) { counters.hits += 1 } else { counters.staleHits += 1 }
                } else {
                    counters.misses += 1
                }
            }
            if entry != nil { SQLiteCacheDatabase.addTouch(&session, key.digest, at: nowSeconds) }
            flushIfDue(&session, connection)
            return entry
        }
    }

    /// The selected entries, most recently used first.
    func list(_ selection: CacheSelection, includeBodies: Bool) throws -> [CacheRecord] {
        try perform("read", fallback: []) { session, connection in
            guard session.hasSchema else { return [] }
            if !readOnly { try flush(&session, connection) }
            let filter = SQLiteSelection(selection)
            guard !filter.matchesNothing else { return [] }
            let body = includeBodies ? "body" : "NULL"
            let sql = "SELECT \(SQLiteCacheDatabase.listColumns), \(body) FROM entries\(filter.whereClause) "
                + "ORDER BY last_access DESC, id DESC"
            let statement = try connection.statement(sql)
            defer { statement.reset() }
            filter.bind(to: statement)
            var records: [CacheRecord] = []
            while try statement.step() {
                if let record = SQLiteCacheDatabase.decodeRecord(statement) { records.append(record) }
            }
            return records
        }
    }

    /// Counters (including those not yet written) and what the database holds.
    func statistics() throws -> CacheStatistics {
        try perform("read", fallback: CacheStatistics(byteLimit: byteLimit)) { session, connection in
            var statistics = CacheStatistics(byteLimit: byteLimit, diskBytes: files.totalSize)
            guard session.hasSchema else { return statistics }
            if !readOnly { try flush(&session, connection) }
            let totals = try connection.statement("SELECT count(*), total(size) FROM entries")
            if try totals.step() {
                statistics.entries = totals.int(0)
                statistics.bytes = Int(totals.double(1))
            }
            totals.reset()
            let counters = try connection.statement(
                "SELECT name, hits, misses, stale_hits, writes, evictions FROM stats")
            defer { counters.reset() }
            while try counters.step() {
                let name = counters.text(0) ?? ""
                statistics.operations[name] = CacheCounters(
                    hits: counters.int(1), misses: counters.int(2), staleHits: counters.int(3),
                    writes: counters.int(4), evictions: counters.int(5))
            }
            statistics.diskBytes = files.totalSize
            return statistics
        }
    }

    /// The problems `PRAGMA integrity_check` finds, then the entries whose stored bytes no longer
    /// match their checksum; empty when the database is sound. Damage is reported, never repaired here.
    func verify() throws -> [String] {
        do {
            return try perform("check", fallback: [], repair: false) { session, connection in
                guard session.hasSchema else { return [] }
                let statement = try connection.statement("PRAGMA integrity_check")
                var problems: [String] = []
                while try statement.step() {
                    let line = statement.text(0) ?? ""
                    if line != "ok" { problems.append(line) }
                }
                statement.reset()
                guard problems.isEmpty, session.hasChecksums else { return problems }
                let entries = try connection.statement(
                    "SELECT status, headers, body, checksum, key, name FROM entries ORDER BY id")
                defer { entries.reset() }
                while try entries.step() {
                    guard !SQLiteCacheDatabase.checksumMatches(entries, checksumColumn: 3) else { continue }
                    problems.append("the entry \(entries.text(4) ?? "?") (\(entries.text(5) ?? "?")) does not match "
                                    + "its checksum: its stored bytes were damaged")
                }
                return problems
            }
        } catch let error as GatewayError {
            if let underlying = error.underlying as? SQLiteError, underlying.isCorruption {
                return [underlying.message]
            }
            throw error
        }
    }

    // MARK: Rows

    /// Binds the key's 64 hex digits without making a string.
    static func bindKey(_ statement: SQLiteStatement, _ index: Int32, _ digest: CacheKey.Digest) {
        withUnsafeTemporaryAllocation(byteCount: 64, alignment: 1) { buffer in
            digest.writeHex(into: buffer)
            statement.bindText(index, UnsafeRawBufferPointer(buffer))
        }
    }

    /// Whether a row's status (column 0), header text (1) and body (2) match its checksum (column
    /// 8 in `selectHit`).
    static func checksumMatches(_ row: SQLiteStatement, checksumColumn: Int32 = 8) -> Bool {
        let stored = Int64(row.int(checksumColumn))
        let status = row.int(0)
        return row.withBytes(1) { headers in
            row.withBytes(2) { body in
                CacheStoredFields.matches(status: status, headers: headers, body: body, storedChecksum: stored)
            }
        }
    }

    static func decodeHit(_ statement: SQLiteStatement, key: CacheKey) -> CacheEntry {
        let headers = statement.withBytes(1) { CacheStorageCoding.decodeHeaders($0) }
        let tags = statement.text(3).map(CacheStorageCoding.decodeTags) ?? []
        return CacheEntry(
            key: key, status: statement.int(0), headers: headers, body: statement.data(2), tags: tags,
            storedAt: Date(timeIntervalSince1970: statement.double(4)),
            expiresAt: statement.optionalDouble(5).map(Date.init(timeIntervalSince1970:)),
            etag: statement.text(6), lastModified: statement.text(7))
    }

    /// A row of `listColumns` followed by the body (or NULL); `nil` for a row of an unknown kind.
    static func decodeRecord(_ row: SQLiteStatement) -> CacheRecord? {
        guard let kind = row.text(1).flatMap(CacheKeyComponents.Kind.init(rawValue:)) else { return nil }
        let components = CacheStoredFields.components(
            kind: kind, partitionSubject: row.text(2), operation: row.text(3), operationName: row.text(4),
            variables: row.text(5), method: row.text(6), endpoint: row.text(7) ?? "", vary: row.text(8))
        let digest = row.text(0).flatMap(CacheKey.Digest.init(hex:))
        let key = digest.map { CacheKey(digest: $0, components: components) } ?? CacheKey(components: components)
        let headers = row.withBytes(11) { CacheStorageCoding.decodeHeaders($0) }
        let entry = CacheEntry(
            key: key, status: row.int(10), headers: headers, body: row.data(19),
            tags: CacheStorageCoding.decodeTags(row.text(9) ?? "[]"),
            storedAt: Date(timeIntervalSince1970: row.double(12)),
            expiresAt: row.optionalDouble(13).map(Date.init(timeIntervalSince1970:)),
            etag: row.text(14), lastModified: row.text(15))
        return CacheRecord(entry: entry, size: row.int(16), hits: row.int(17),
                           lastAccess: Date(timeIntervalSince1970: row.double(18)))
    }
}
