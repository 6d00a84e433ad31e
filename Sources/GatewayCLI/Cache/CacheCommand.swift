import Foundation

/// `gateway cache VERB [--db PATH | --redis URL] [--json]`: the response cache's SQLite database,
/// or a Redis cache's keys, readable by a person and by a script.
///
/// Read verbs (`list`, `show`, `explain`, `diff`, `stats`, `verify`, `export`) open the database
/// read-only and never disturb a process writing it; `evict`, `purge` and `vacuum` write. Every
/// verb works on Redis too (`vacuum` there has nothing to do).
public struct CacheCommand: Command {
    /// The moment ages and expiry are judged by (the clock, unless a test fixes it).
    let now: @Sendable () -> Date

    /// Creates the command.
    public init() { self.init(now: { Date() }) }

    /// Creates the command with a clock.
    init(now: @escaping @Sendable () -> Date) { self.now = now }

    /// Every verb, in the order the help lists them.
    static let verbs: [any CacheVerb] = [
        CacheListVerb(), CacheShowVerb(), CacheExplainVerb(), CacheDiffVerb(), CacheStatsVerb(),
        CacheEvictVerb(), CachePurgeVerb(), CacheVacuumVerb(), CacheVerifyVerb(), CacheExportVerb(),
    ]

    /// The verb.
    public var name: String { "cache" }
    /// One line for `gateway --help`.
    public var summary: String { "Inspect the response cache: list, show, explain, diff, stats, evict, verify, ..." }

    /// The text of `gateway help cache`: every verb, flag and exit status.
    public var help: String {
        let width = Self.verbs.map(\.name.count).max() ?? 0
        let verbs = Self.verbs.map { "  \($0.name.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)" }
        return """
            Usage: gateway cache VERB [ARGUMENTS] [--db PATH | --redis URL [--prefix PREFIX]] [--json]
                                 [--redact NAME]...

            Reads the response cache's SQLite database, the file a Provider's SQLiteCacheStore writes
            (or, with --redis, the keys a RedisCacheStore keeps): what is cached, why two requests got
            different keys, how well the cache works.

            Verbs:
            \(verbs.joined(separator: "\n"))

            \(Self.commonOptions)

            \(Self.verbs.map(\.help).joined(separator: "\n\n"))

            \(Self.notes)
            """
    }

    /// The options every verb takes.
    static let commonOptions = """
        Options of every verb:
          --db PATH      The cache database. Default: $GATEWAY_CACHE when set, else the path a
                         Provider's SQLiteCacheStore uses when none is configured:
                         $XDG_CACHE_HOME/gateway/cache.sqlite, else ~/.cache/gateway/cache.sqlite
                         (~/Library/Caches/Gateway/cache.sqlite on Apple platforms).
          --redis URL    The Redis cache at redis://[user:password@]host[:port][/db] instead of a
                         database: every verb works on it (vacuum has nothing to do there).
          --prefix P     The Redis cache's key prefix (a RedisCacheStore's keyPrefix). Default: gateway:
          --json         Machine output: one JSON document on standard output (export: JSON lines).
                         Errors still go to standard error as text, with the exit status below.
          --redact NAME  Hide the values of JSON fields, headers and query items named NAME as well
                         (repeatable; names compare without case, '_', '-' or '.'). Always hidden:
                         access_token, refresh_token, id_token, token, password, client_secret, secret,
                         api_key and the like, and the Authorization, Proxy-Authorization, Cookie,
                         Set-Cookie and X-API-Key headers. Hidden values print as <redacted>.
          --help         This text ('gateway cache help VERB' prints one verb).
        """

    /// Keys, databases, colour and exit statuses.
    static let notes = """
        Keys: a key is 64 hex digits; tables show the first 12. Every verb that takes a KEY accepts
        any prefix that names exactly one entry.

        Read verbs open the database read-only: they never write, checkpoint or repair it, so a
        process writing to it at the same time is not disturbed. (Like every reader of a SQLite
        WAL database, they create its -wal and -shm companions, empty, when these are missing.)
        Hit counts a running process has not written yet (it writes them at least every second
        while busy) are not seen. On Redis (--redis), read verbs count no hits and repair nothing;
        they only drop the index members of entries Redis has already expired.

        Tables use colour only when standard output is a terminal and NO_COLOR is not set.

        Exit status:
          0  success (an empty result included)
          1  the database is missing or damaged (verify: damage was found), or no entry has the KEY
          2  usage error, a key prefix that names several entries, or a file that cannot be used
             (permissions, a lock held too long, not a Gateway cache, written by a newer Gateway),
             or a Redis that does not answer or refuses the login
        """

    /// Runs the verb named first on the command line.
    /// - Returns: The exit status described in ``help``.
    public func run(_ arguments: inout Arguments, output: Output) async throws -> Int32 {
        let options = try CacheOptions(parsing: &arguments)
        if options.verb == "help" {
            return try printHelp(of: options.operands, output: output)
        }
        guard let verb = Self.verbs.first(where: { $0.name == options.verb }) else {
            let names = Self.verbs.map(\.name).joined(separator: ", ")
            throw UsageError(options.verb.isEmpty ? "name a verb: \(names)"
                                                  : "unknown verb '\(options.verb)'; the verbs are \(names)")
        }
        try check(options, against: verb)
        let context = CacheContext(options: options, output: output, now: now())
        do {
            let status = try await verb.run(context)
            context.printWarnings(after: nil)
            return status
        } catch let error as UsageError {
            context.printWarnings(after: nil)
            throw error
        } catch {
            context.printWarnings(after: error)
            let failure = error as? CacheFailure ?? CacheFailure.from(error, path: context.path)
            output.error("gateway cache \(verb.name): \(failure)")
            return failure.status
        }
    }

    private func printHelp(of operands: [String], output: Output) throws -> Int32 {
        guard let name = operands.first else {
            output.print(help)
            return 0
        }
        guard operands.count == 1, let verb = Self.verbs.first(where: { $0.name == name }) else {
            throw UsageError("'gateway cache help' takes one verb: \(Self.verbs.map(\.name).joined(separator: ", "))")
        }
        output.print("Usage: \(verb.help)\n\n\(Self.commonOptions)\n\n\(Self.notes)")
        return 0
    }

    /// Refuses options and operands the verb does not take.
    private func check(_ options: CacheOptions, against verb: any CacheVerb) throws(UsageError) {
        if let option = options.given.first(where: { !verb.options.contains($0) }) {
            throw UsageError("\(verb.name) does not take --\(option.rawValue)")
        }
        let count = options.operands.count
        guard verb.operands.contains(count) else {
            let wanted = switch (verb.operands.lowerBound, verb.operands.upperBound) {
            case (_, 0): "no arguments"
            case (1, 1): "one KEY"
            case (2, 2): "two KEYs"
            default: "at most \(verb.operands.upperBound) KEY"
            }
            let given = count == 0 ? "none" : options.operands.joined(separator: " ")
            throw UsageError("\(verb.name) takes \(wanted); got \(given)")
        }
    }
}
