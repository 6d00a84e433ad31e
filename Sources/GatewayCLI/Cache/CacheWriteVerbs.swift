import Foundation
import Gateway
import GatewaySQLite
import GraphQLLanguage

/// `gateway cache evict KEY | --operation NAME | --partition ID | --expired | --tag TAG`.
struct CacheEvictVerb: CacheVerb {
    let name = "evict"
    let synopsis = "KEY | [--operation NAME] [--partition ID] [--tag TAG] [--expired]"
    let summary = "Remove one entry by key, or the entries of an operation, partition, tag, or expired ones"
    let details = """
          Removes the entry of KEY, or every entry the filters select (all of those given must
          hold; see 'list' for their meaning). Removing a partition leaves none of its bytes in
          the database files. Give a KEY or at least one filter, not both. An unknown KEY exits 1;
          filters that select nothing remove nothing and exit 0.
          --json prints { removed }.
        """
    let options: Set<CacheOptions.Option> = [.operation, .partition, .tag, .expired]
    let operands: ClosedRange<Int> = 0...1

    func run(_ context: CacheContext) async throws -> Int32 {
        let options = context.options
        // Exactly one of a KEY and filters: never everything by accident.
        guard options.operands.isEmpty == options.hasFilters else {
            throw UsageError(options.hasFilters ? "give a KEY or filters, not both"
                                                : "give the KEY to evict, or --operation, --partition, --tag or --expired")
        }
        let redis = context.redisStore()
        let writable = redis == nil ? try await context.openForWriting() : nil
        guard let store: any CacheStore = redis ?? writable?.store else { return 2 }
        let selection: CacheSelection
        if let operand = options.operands.first {
            selection = .digest(try await context.record(operand, in: store, includeBody: false).entry.key.digest)
        } else {
            selection = options.selection(now: context.now)
        }
        let removed = try await store.remove(selection)
        if let writable, let status = CacheWrites.reportWarnings(writable, context: context) { return status }
        if options.json {
            context.print(json: ["removed": CacheJSON.number(removed)])
        } else {
            context.print(removed == 0 ? "No entry matched; nothing was removed."
                                       : "Removed \(CacheFormat.count(removed, "entry", "entries")).")
        }
        return 0
    }
}

/// `gateway cache purge`: every entry removed.
struct CachePurgeVerb: CacheVerb {
    let name = "purge"
    let synopsis = ""
    let summary = "Remove every entry (a damaged database is deleted and started empty)"
    let details = """
          Removes every entry and rewrites the files so that none of their bytes remain; the
          counters of 'stats' are kept. A damaged database is deleted with its -wal, -shm and
          -journal files and started empty (exit 0, with a note on standard error). A missing
          database exits 1 and is not created.
          --json prints { removed, rebuilt }.
        """

    func run(_ context: CacheContext) async throws -> Int32 {
        if let redis = context.redisStore() {
            let removed = try await redis.remove(.all)
            if context.options.json {
                context.print(json: ["removed": CacheJSON.number(removed), "rebuilt": .bool(false)])
            } else {
                context.print("Removed \(CacheFormat.count(removed, "entry", "entries")); "
                              + "the cache at \(context.path) is empty.")
            }
            return 0
        }
        let writable = try await context.openForWriting(rebuildingDamaged: true)
        let removed = try await writable.store.remove(.all)
        let warnings = writable.warnings.value
        let rebuilt = warnings.contains(where: CacheWrites.isRebuild)
        for warning in warnings { context.output.error("gateway cache purge: note: \(warning)") }
        if context.options.json {
            context.print(json: ["removed": CacheJSON.number(removed), "rebuilt": .bool(rebuilt)])
        } else if rebuilt {
            context.print("The database was damaged; it was deleted and an empty one created at \(context.path).")
        } else {
            context.print("Removed \(CacheFormat.count(removed, "entry", "entries")); the cache at \(context.path) is empty.")
        }
        return 0
    }
}

/// `gateway cache vacuum`: the database rewritten without free space.
struct CacheVacuumVerb: CacheVerb {
    let name = "vacuum"
    let synopsis = ""
    let summary = "Rewrite the database without free space and empty its write-ahead log"
    let details = """
          Rewrites the database without free pages and folds its write-ahead log back into it,
          then prints the size on disk before and after. Entries and counters are kept.
          With --redis there is nothing to do: Redis frees the memory of removed and expired
          entries itself (exit 0, nothing is sent to Redis).
          --json prints { diskBytesBefore, diskBytesAfter } (both null for Redis).
        """

    /// What `vacuum --redis` says.
    static let redisNote = "Nothing to vacuum: Redis frees the memory of removed and expired entries itself, "
        + "so a Redis cache has no free space to reclaim."

    func run(_ context: CacheContext) async throws -> Int32 {
        if context.options.redis != nil {
            if context.options.json {
                context.print(json: ["diskBytesBefore": .null, "diskBytesAfter": .null])
            } else {
                context.print(Self.redisNote)
            }
            return 0
        }
        let writable = try await context.openForWriting()
        let before = writable.store.diskBytes
        try await writable.store.vacuum()
        let after = writable.store.diskBytes
        if let status = CacheWrites.reportWarnings(writable, context: context) { return status }
        if context.options.json {
            context.print(json: ["diskBytesBefore": CacheJSON.number(before), "diskBytesAfter": CacheJSON.number(after)])
        } else {
            context.print("Vacuumed \(context.path): \(CacheFormat.size(before)) before, "
                          + "\(CacheFormat.size(after)) after.")
        }
        return 0
    }
}

/// What the writing verbs share.
enum CacheWrites {
    /// Whether a store's warning says it deleted a damaged database and started an empty one.
    static func isRebuild(_ warning: CacheWarning) -> Bool { warning.message.contains("damaged") }

    /// Prints the store's warnings on standard error; returns exit status 1 when the database
    /// turned out damaged (the store then rebuilt it empty), `nil` otherwise.
    static func reportWarnings(_ writable: CacheContext.Writable, context: CacheContext) -> Int32? {
        let warnings = writable.warnings.value
        guard !warnings.isEmpty else { return nil }
        let verb = context.options.verb
        for warning in warnings { context.output.error("gateway cache \(verb): warning: \(warning)") }
        guard warnings.contains(where: isRebuild) else { return nil }
        context.output.error("gateway cache \(verb): the database was damaged and is now empty; nothing else was done")
        return 1
    }
}
