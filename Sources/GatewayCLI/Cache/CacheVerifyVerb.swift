import Foundation
import Gateway
import GatewaySQLite
import GraphQLLanguage

/// `gateway cache verify`: an integrity check that reports and never repairs.
struct CacheVerifyVerb: CacheVerb {
    let name = "verify"
    let synopsis = ""
    let summary = "Check the cache's integrity (read-only); exit 1 when it is damaged"
    let details = """
          Runs SQLite's integrity check on the database, read-only, and checks that every
          entry's stored status, headers and body match its checksum and that its key is the
          digest of its stored components. Prints a report: sound, or each problem found and
          what to do. Exit status 1 when the database is damaged (a garbage header, a damaged
          page, an entry whose bytes changed, keys that do not match), 0 when it is sound.
          Nothing is repaired; 'gateway cache purge' deletes a damaged database and starts an
          empty one. With --redis, checks every entry key under the prefix the same way (each a
          hash matching its checksum, its key the digest of its components, listed in the index
          of all entries); 'gateway cache evict KEY' or 'purge' removes damaged entries.
          --json prints { path, ok, problems: [text], entries, diskBytes (null for Redis) }.
        """

    func run(_ context: CacheContext) async throws -> Int32 {
        if let redis = context.redisStore() { return try await run(context, on: redis) }
        guard FileManager.default.fileExists(atPath: context.path) else { throw CacheFailure.missing(context.path) }
        var problems: [String] = []
        var entries = 0
        do {
            let store = try context.openForReading()
            problems = try await store.verify()
            if problems.isEmpty {
                let records = try await store.list(.all, includeBodies: false)
                entries = records.count
                if let problem = Self.mismatchedKeys(records) { problems.append(problem) }
            }
        } catch {
            let failure = error as? CacheFailure ?? CacheFailure.from(error, path: context.path)
            guard failure.kind == .damaged else { throw failure }
            problems = [failure.reason ?? failure.message]
        }
        let diskBytes = SQLiteCacheStore.databaseFiles(forPath: context.path).reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.intValue ?? 0)
        }
        if context.options.json {
            context.print(json: [
                "path": .string(context.path), "ok": .bool(problems.isEmpty),
                "problems": .array(problems.map { .string($0) }), "entries": CacheJSON.number(entries),
                "diskBytes": CacheJSON.number(diskBytes),
            ])
        } else if problems.isEmpty {
            let verdict = context.output.usesColor ? "\u{1B}[32msound\u{1B}[0m" : "sound"
            context.print("""
                Checked \(context.path) (\(CacheFormat.size(diskBytes)) on disk):
                  integrity check  ok
                  keys             \(CacheFormat.count(entries, "entry", "entries")), each key the digest of its components
                The database is \(verdict).
                """)
        } else {
            let verdict = context.output.usesColor ? "\u{1B}[31mdamaged\u{1B}[0m" : "damaged"
            let list = problems.prefix(20).map { "  - \($0)" }
            let more = problems.count > 20 ? ["  ... and \(problems.count - 20) more"] : []
            context.print((["The cache database at \(context.path) is \(verdict):"] + list + more
                           + [CacheFailure.purgeAdvice]).joined(separator: "\n"))
        }
        return problems.isEmpty ? 0 : 1
    }
}

extension CacheVerifyVerb {
    /// The problem of entries whose keys are not the digest of their stored components; `nil`
    /// when every key is.
    static func mismatchedKeys(_ records: [CacheRecord]) -> String? {
        let mismatched = records.filter { CacheKey(components: $0.entry.key.components) != $0.entry.key }
        guard let first = mismatched.first else { return nil }
        return "\(CacheFormat.count(mismatched.count, "entry has a key", "entries have keys")) "
            + "that are not the digest of their components (the first: "
            + "\(CacheFormat.shortKey(first.entry.key.digest)))"
    }
}

/// `gateway cache export`: every entry as one JSON object per line.
struct CacheExportVerb: CacheVerb {
    let name = "export"
    let synopsis = "[--operation NAME] [--partition ID] [--tag TAG] [--expired]"
    let summary = "Every entry as JSON lines, secrets redacted"
    let details = """
          Prints every entry (or those the filters select; see 'list') as one JSON object per
          line, most recently used first, with the fields of 'show --json' (without query): key
          components, headers, times, size, hits and the body (JSON as JSON, text as bodyText;
          binary data is left out, bodyBytes says how much there was). Values of token-like
          fields print as <redacted>. An empty cache prints nothing. --json changes nothing.
        """
    let options: Set<CacheOptions.Option> = [.operation, .partition, .tag, .expired]

    func run(_ context: CacheContext) async throws -> Int32 {
        let store = try context.openStoreForReading()
        let records = try await store.list(context.options.selection(now: context.now), includeBodies: true)
        var text = ""
        for record in records {
            text += CacheJSON.detail(record, now: context.now, redactor: context.redactor).serialized(.compact)
            text += "\n"
        }
        if !text.isEmpty { context.output.print(text, terminator: "") }
        return 0
    }
}
