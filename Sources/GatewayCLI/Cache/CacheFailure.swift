import Gateway
import GatewayRedis
import GatewaySQLite

/// Why a `gateway cache` verb could not do its work, with its exit status and how to fix it.
///
/// Exit statuses: 1 when the database is missing or damaged or no entry has the key; 2 for usage
/// errors (an ambiguous key prefix included) and for files that cannot be used (permissions,
/// a lock held too long, not a Gateway cache, a newer schema).
struct CacheFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, by exit status.
    enum Kind: String, Sendable {
        /// No database at the path (exit 1).
        case missing
        /// The database is damaged (exit 1).
        case damaged
        /// No entry has the key (exit 1).
        case notFound = "not found"
        /// A key prefix names several entries (exit 2).
        case ambiguous
        /// The file cannot be used: permissions, locks, another application's database (exit 2).
        case unusable
    }

    var kind: Kind
    var message: String
    var fix: String?
    /// For damage, what SQLite said (`file is not a database`).
    var reason: String?

    init(_ kind: Kind, _ message: String, fix: String? = nil, reason: String? = nil) {
        self.kind = kind
        self.message = message
        self.fix = fix
        self.reason = reason
    }

    /// The exit status the verb returns.
    var status: Int32 {
        switch kind {
        case .missing, .damaged, .notFound: 1
        case .ambiguous, .unusable: 2
        }
    }

    /// The message, then the fix on its own line.
    var description: String { fix.map { "\(message)\n\($0)" } ?? message }

    /// What to do about a damaged database.
    static let damagedFix = "Run 'gateway cache verify' for the details. " + purgeAdvice

    /// What `purge` and a Provider do with a damaged database.
    static let purgeAdvice = "'gateway cache purge' deletes it and starts an empty cache; a Provider using it "
        + "rebuilds it on its own the next time it opens it."

    /// The failure an error of the store (or of opening it) stands for.
    static func from(_ error: any Error, path: String) -> CacheFailure {
        let detail = (error as? GatewayError)?.message ?? "\(error)"
        if let error = error as? GatewayError, error.underlying is RedisError {
            return CacheFailure(.unusable, detail, fix: error.fix)
        }
        switch SQLiteCacheStore.failure(of: error) {
        case .missing:
            return missing(path)
        case .damaged:
            let reason = SQLiteCacheStore.sqliteMessage(of: error) ?? "\(error)"
            return CacheFailure(.damaged, "the cache database at \(path) is damaged (\(reason))", fix: damagedFix,
                                reason: reason)
        case .foreign:
            return CacheFailure(.unusable, "\(path) is a SQLite database but not a Gateway cache",
                                fix: "Check the path given with --db or GATEWAY_CACHE.")
        case .newerSchema:
            return CacheFailure(.unusable, detail, fix: "Use the gateway command of the Gateway version that wrote it.")
        case .busy:
            return CacheFailure(.unusable, detail, fix: "Try again when the process writing it is idle.")
        case .other:
            return CacheFailure(.unusable, detail)
        }
    }

    /// No database at `path`.
    static func missing(_ path: String) -> CacheFailure {
        CacheFailure(.missing, "there is no cache database at \(path)",
                     fix: "Nothing was cached there yet, or the path is wrong: give the database with --db PATH "
                        + "or the GATEWAY_CACHE environment variable.")
    }
}
