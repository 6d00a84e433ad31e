import Foundation
import Gateway
import GatewaySQLite
import GraphQLLanguage

/// `gateway cache stats`: how the cache has been used, in total and per operation.
struct CacheStatsVerb: CacheVerb {
    let name = "stats"
    let synopsis = ""
    let summary = "Entries, bytes, hits, misses, hit rate, stale hits, evictions, per operation"
    let details = """
          Prints what the database holds (entries, how many expired, their bytes, the files' size
          on disk and the byte limit) and the counters the stores keep in it: hits, stale hits
          (an expired entry served), misses, the hit rate ((hits + stale hits) / look-ups),
          writes and evictions; then a table per operation (REST: per method and URL without its
          query), busiest first.
          --json prints { path, entries, expired, bytes, diskBytes, byteLimit, hits, staleHits,
          misses, hitRate (null before the first look-up), writes, evictions, operations: [{ name,
          entries, bytes, hits, staleHits, misses, hitRate, writes, evictions }] }.
        """

    /// The counters and contents of one operation.
    struct Row {
        var name: String
        var entries = 0
        var bytes = 0
        var counters = CacheCounters()

        var lookups: Int { counters.hits + counters.staleHits + counters.misses }
    }

    func run(_ context: CacheContext) async throws -> Int32 {
        let store = try context.openStoreForReading()
        let statistics = try await store.statistics()
        let records = try await store.list(.all, includeBodies: false)
        // A database records the limit its writer used; Redis's own is its maxmemory (0: none).
        let limit: Int?
        if let database = store as? SQLiteCacheStore {
            limit = try await database.recordedByteLimit()
        } else {
            limit = store.byteLimit > 0 ? store.byteLimit : nil
        }
        let expired = records.filter { !$0.entry.isFresh(at: context.now) }.count
        let rows = Self.rows(statistics, records, redactor: context.redactor)
        let totals = statistics.totals
        if context.options.json {
            var object: JSONObject = [
                "path": .string(context.path),
                "entries": CacheJSON.number(statistics.entries),
                "expired": CacheJSON.number(expired),
                "bytes": CacheJSON.number(statistics.bytes),
                "diskBytes": statistics.diskBytes.map(CacheJSON.number) ?? .null,
                "byteLimit": limit.map(CacheJSON.number) ?? .null,
            ]
            object.members.append(contentsOf: Self.counters(totals).members)
            object.members.append(.init(key: "operations", value: .array(rows.map { row in
                var item: JSONObject = ["name": .string(row.name), "entries": CacheJSON.number(row.entries),
                                        "bytes": CacheJSON.number(row.bytes)]
                item.members.append(contentsOf: Self.counters(row.counters).members)
                return .object(item)
            })))
            context.print(json: .object(object))
            return 0
        }
        var entries = String(statistics.entries)
        if expired > 0 { entries += " (\(expired) expired)" }
        var size = "\(CacheFormat.size(statistics.bytes)) in entries"
        if let disk = statistics.diskBytes { size += ", \(CacheFormat.size(disk)) on disk" }
        if let limit { size += ", limit \(CacheFormat.size(limit))" }
        let fields = [
            ("Cache", context.path), ("Entries", entries), ("Size", size),
            ("Hits", String(totals.hits)), ("Stale hits", String(totals.staleHits)),
            ("Misses", String(totals.misses)), ("Hit rate", CacheFormat.rate(totals.hitRate)),
            ("Writes", String(totals.writes)), ("Evictions", String(totals.evictions)),
        ]
        var text = CacheShowVerb.aligned(fields)
        if !rows.isEmpty { text += "\n\n" + context.render(table(rows)) }
        context.print(text)
        return 0
    }

    /// One row per name counted or holding entries, busiest (most look-ups, then most entries) first.
    static func rows(_ statistics: CacheStatistics, _ records: [CacheRecord], redactor: CacheRedactor) -> [Row] {
        var rows: [String: Row] = [:]
        for (name, counters) in statistics.operations {
            rows[name, default: Row(name: name)].counters.add(counters)
        }
        for record in records {
            let name = record.entry.key.components.statisticsName
            rows[name, default: Row(name: name)].entries += 1
            rows[name, default: Row(name: name)].bytes += record.size
        }
        return rows.values.map { row in
            var row = row
            row.name = redactor.text(row.name)
            return row
        }.sorted { a, b in
            if a.lookups != b.lookups { return a.lookups > b.lookups }
            if a.entries != b.entries { return a.entries > b.entries }
            return a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
        }
    }

    private static func counters(_ counters: CacheCounters) -> JSONObject {
        [
            "hits": CacheJSON.number(counters.hits), "staleHits": CacheJSON.number(counters.staleHits),
            "misses": CacheJSON.number(counters.misses),
            "hitRate": counters.hitRate.flatMap { JSONNumber(($0 * 10_000).rounded() / 10_000) }.map { .number($0) }
                ?? .null,
            "writes": CacheJSON.number(counters.writes), "evictions": CacheJSON.number(counters.evictions),
        ]
    }

    private func table(_ rows: [Row]) -> TextTable {
        var table = TextTable(columns: [
            .init(title: "OPERATION"), .init(title: "ENTRIES", alignment: .right),
            .init(title: "SIZE", alignment: .right), .init(title: "HITS", alignment: .right),
            .init(title: "STALE", alignment: .right), .init(title: "MISSES", alignment: .right),
            .init(title: "HIT RATE", alignment: .right), .init(title: "WRITES", alignment: .right),
            .init(title: "EVICTIONS", alignment: .right),
        ])
        for row in rows {
            table.rows.append([
                .init(CacheFormat.shortened(row.name, to: 56)), .init(String(row.entries)),
                .init(CacheFormat.size(row.bytes)), .init(String(row.counters.hits)),
                .init(String(row.counters.staleHits)), .init(String(row.counters.misses)),
                .init(CacheFormat.rate(row.counters.hitRate)), .init(String(row.counters.writes)),
                .init(String(row.counters.evictions)),
            ])
        }
        return table
    }
}
