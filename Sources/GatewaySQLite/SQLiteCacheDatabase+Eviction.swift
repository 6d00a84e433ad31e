import Foundation
import Gateway

extension SQLiteCacheDatabase {
    /// Pages the schema itself needs (tables, indexes, the freelist trunk); never available to entries.
    static let reservedPages = 16

    /// Evicts entries until `pages` more pages fit under the budget: expired entries first, then
    /// the least recently used. Evicts a little more than needed (1/32 of the budget) so that the
    /// next writes do not each evict.
    ///
    /// Counts pages, not bytes: rows do not fill their pages, so the file is what is measured.
    ///
    /// - Returns: `false` when the entry cannot fit even in an empty database.
    func makeRoom(_ connection: SQLiteConnection, pages: Int, pageSize: Int, now: Date,
                  counters: inout CacheCounterTable) throws -> Bool {
        let budget = budgetPages(pageSize: pageSize)
        guard pages <= budget - SQLiteCacheDatabase.reservedPages else { return false }
        var used = try usedPages(connection)
        guard used + pages > budget else { return true }
        let target = budget - pages - budget / 32
        var rounds = 0
        while used > target {
            rounds += 1
            let victims = try pickVictims(connection, bytes: (used - target) * pageSize, now: now)
            guard !victims.isEmpty, rounds <= 10_000 else { return used + pages <= budget }
            let delete = try connection.statement("DELETE FROM entries WHERE id = ?1")
            for victim in victims {
                delete.bind(1, victim.id)
                try delete.run()
                counters.update(victim.statisticsName) { $0.evictions += 1 }
            }
            used = try usedPages(connection)
        }
        return true
    }

    /// Pages holding data: all pages less the free ones.
    func usedPages(_ connection: SQLiteConnection) throws -> Int {
        try connection.integer("PRAGMA page_count") - connection.integer("PRAGMA freelist_count")
    }

    /// Entries whose sizes add up to at least `bytes`: expired ones (soonest expiry first, found by
    /// a scan: an expiry index would cost every write a page), then the least recently used.
    private func pickVictims(_ connection: SQLiteConnection, bytes: Int, now: Date)
        throws -> [(id: Int, statisticsName: String)]
    {
        var victims: [(id: Int, statisticsName: String)] = []
        var chosen = Set<Int>()
        var total = 0
        let queries = [
            "SELECT id, stats_name, size FROM entries WHERE expires_at IS NOT NULL AND expires_at <= ?1 "
                + "ORDER BY expires_at LIMIT 64",
            "SELECT id, stats_name, size FROM entries ORDER BY last_access, id LIMIT 64",
        ]
        for sql in queries where total < bytes {
            let statement = try connection.statement(sql)
            defer { statement.reset() }
            if sql.contains("?1") { statement.bind(1, now.timeIntervalSince1970) }
            while total < bytes, try statement.step() {
                let id = statement.int(0)
                guard chosen.insert(id).inserted else { continue }
                victims.append((id, statement.text(1) ?? ""))
                total += max(statement.int(2), 1)
            }
        }
        return victims
    }

    /// Gives free pages back to the file system when the file is larger than the budget.
    func shrinkIfNeeded(_ connection: SQLiteConnection, pageSize: Int) throws {
        let pages = try connection.integer("PRAGMA page_count")
        let free = try connection.integer("PRAGMA freelist_count")
        guard free > 0, pages > budgetPages(pageSize: pageSize) else { return }
        try connection.execute("PRAGMA incremental_vacuum(\(free))")
    }

    /// Rewrites the database and empties the write-ahead log, so that removed rows leave no bytes
    /// behind in any file: deleted cells are already zeroed (`secure_delete`), `VACUUM` rebuilds
    /// every page, and `wal_checkpoint(TRUNCATE)` copies the log into the file and truncates it.
    ///
    /// When another connection is reading, the log cannot be truncated now; a warning says so.
    func scrub(_ connection: SQLiteConnection) throws {
        var complete = try checkpoint(connection)
        try connection.execute("VACUUM")
        complete = try checkpoint(connection) && complete
        if !complete {
            warn(CacheWarning("another connection is reading the cache, so the write-ahead log could not be "
                              + "emptied now; removed data stays in its -wal file until the next checkpoint",
                              path: path))
        }
    }

    /// `PRAGMA wal_checkpoint(TRUNCATE)`; `false` when a reader kept it from completing.
    private func checkpoint(_ connection: SQLiteConnection) throws -> Bool {
        let statement = try connection.statement("PRAGMA wal_checkpoint(TRUNCATE)")
        defer { statement.reset() }
        guard try statement.step() else { return true }
        return statement.int(0) == 0
    }
}
