import Foundation
import Gateway
import GraphQLLanguage

/// `gateway cache list`: one row per entry.
struct CacheListVerb: CacheVerb {
    let name = "list"
    let synopsis = "[--operation NAME] [--partition ID] [--tag TAG] [--expired] [--sort age|size|hits]"
    let summary = "One row per entry: key, kind, operation or URL, partition, size, age, expiry, hits"
    let details = """
          One row per entry, most recently used first: the key (its first 12 digits), the kind
          (GraphQL or REST), the operation name or URL, the partition (whose data it is: a subject,
          or anonymous; shortened), the size, the age, the time to expiry ('in 5 min', 'expired
          2 h ago', 'never') and how often it was served. A last line sums them up.
            --operation NAME      Only entries of this operation name (GraphQL) or URL (REST).
            --partition ID        Only entries of this partition: a subject, or 'anonymous'
                                  ('subject:anonymous' for a subject of that name).
            --tag TAG             Only entries carrying this tag.
            --expired             Only entries past their expiry.
            --sort age|size|hits  Oldest, largest or most served first.
          --json prints an array with one object per entry: key, shortKey, kind, name,
          operationName (GraphQL) or method (REST), partition (null when anonymous), size, hits,
          status, tags, storedAt, expiresAt, lastAccess, expired, ageSeconds, expiresInSeconds.
        """
    let options: Set<CacheOptions.Option> = [.operation, .partition, .tag, .expired, .sort]

    func run(_ context: CacheContext) async throws -> Int32 {
        let store = try context.openStoreForReading()
        let selection = context.options.selection(now: context.now)
        let records = Self.sorted(try await store.list(selection, includeBodies: false), by: context.options.sort)
        if context.options.json {
            context.print(json: .array(records.map {
                CacheJSON.summary($0, now: context.now, redactor: context.redactor)
            }))
            return 0
        }
        guard !records.isEmpty else {
            if selection.selectsAll {
                context.print("The cache at \(context.path) has no entries.")
            } else {
                let total = try await store.statistics().entries
                context.print("No entry matches (the cache at \(context.path) holds "
                              + "\(CacheFormat.count(total, "entry", "entries"))).")
            }
            return 0
        }
        context.print(context.render(table(records, context: context)))
        var summary = CacheFormat.count(records.count, "entry", "entries")
        if !selection.selectsAll {
            let total = try await store.statistics().entries
            summary = "\(records.count) of \(CacheFormat.count(total, "entry", "entries"))"
        }
        summary += ", \(CacheFormat.size(records.reduce(0) { $0 + $1.size }))"
        let expired = records.filter { !$0.entry.isFresh(at: context.now) }.count
        if expired > 0 { summary += " (\(expired) expired)" }
        context.print(summary + ".")
        return 0
    }

    /// The records in the order `--sort` asks for; without it, as the store lists them (most
    /// recently used first).
    static func sorted(_ records: [CacheRecord], by sort: CacheOptions.Sort?) -> [CacheRecord] {
        guard let sort else { return records }
        // Ties keep the store's order, so the output is stable.
        return records.enumerated().sorted { left, right in
            let (a, b) = (left.element, right.element)
            switch sort {
            case .age where a.entry.storedAt != b.entry.storedAt: return a.entry.storedAt < b.entry.storedAt
            case .size where a.size != b.size: return a.size > b.size
            case .hits where a.hits != b.hits: return a.hits > b.hits
            default: return left.offset < right.offset
            }
        }.map(\.element)
    }

    private func table(_ records: [CacheRecord], context: CacheContext) -> TextTable {
        var table = TextTable(columns: [
            .init(title: "KEY"), .init(title: "KIND"), .init(title: "OPERATION / URL"), .init(title: "PARTITION"),
            .init(title: "SIZE", alignment: .right), .init(title: "AGE", alignment: .right),
            .init(title: "EXPIRES"), .init(title: "HITS", alignment: .right),
        ])
        for record in records {
            let entry = record.entry
            let components = entry.key.components
            var name = CacheJSON.name(components, redactor: context.redactor)
            if components.kind == .rest, let method = components.method, method != "GET" { name = "\(method) \(name)" }
            let fresh = entry.isFresh(at: context.now)
            table.rows.append([
                .init(CacheFormat.shortKey(entry.key.digest)),
                .init(CacheFormat.kind(components.kind)),
                .init(CacheFormat.shortened(name, to: 56)),
                .init(CacheFormat.partition(components.partition, maximum: 18)),
                .init(CacheFormat.size(record.size)),
                .init(CacheFormat.age(of: entry.storedAt, now: context.now)),
                .init(CacheFormat.expiry(entry.expiresAt, now: context.now), fresh ? nil : .red),
                .init(String(record.hits)),
            ])
        }
        return table
    }
}
