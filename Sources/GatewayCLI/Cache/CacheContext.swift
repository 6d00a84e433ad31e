import Foundation
import Gateway
import GatewayRedis
import GatewaySQLite
import GraphQLLanguage

/// What every `gateway cache` verb works with: its options, where it writes, the moment it
/// judges ages by, the database path, and how it opens the database and finds entries.
struct CacheContext: Sendable {
    let options: CacheOptions
    let output: Output
    /// The moment ages and expiry are judged by.
    let now: Date
    /// The database file.
    let path: String
    let redactor: CacheRedactor
    /// What the Redis store warned of, held until the verb has ended (`printWarnings(after:)`).
    private let redisWarnings = Locked<[CacheWarning]>([])

    init(options: CacheOptions, output: Output, now: Date) {
        self.options = options
        self.output = output
        self.now = now
        path = options.redis.map(\.description) ?? options.database.map { output.url(forPath: $0).path }
            ?? Self.defaultPath(environment: output.environment)
        redactor = CacheRedactor(adding: options.redact)
    }

    /// `$GATEWAY_CACHE` when set, else the path a Provider's SQLite cache uses when none is
    /// configured (`SQLiteCacheStore.defaultPath`).
    static func defaultPath(environment: [String: String]) -> String {
        if let path = environment["GATEWAY_CACHE"], !path.isEmpty { return path }
        return SQLiteCacheStore.defaultPath(environment: environment)
    }

    // MARK: Opening

    /// Opens the database read-only (`SQLITE_OPEN_READONLY`): nothing is written, checkpointed
    /// or repaired, so a process writing the file is never disturbed. A missing file is not
    /// created (SQLite itself creates the empty `-wal` and `-shm` companions of an existing WAL
    /// database when they are missing, as it does for every reader).
    ///
    /// - Throws: `CacheFailure` when the file is missing, damaged or cannot be used.
    func openForReading() throws(CacheFailure) -> SQLiteCacheStore {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .missing(path) }
        guard !isDirectory.boolValue else {
            throw CacheFailure(.unusable, "\(path) is a folder, not a cache database",
                               fix: "Give the database file with --db, such as \(path)/cache.sqlite.")
        }
        do {
            return try SQLiteCacheStore(path: path, mode: .readOnly, onWarning: { _ in })
        } catch {
            throw .from(error, path: path)
        }
    }

    /// The Redis cache of `--redis`, or `nil` without it. Its warnings go to standard error once
    /// the verb has ended (`printWarnings(after:)`).
    func redisStore() -> RedisCacheStore? {
        guard let url = options.redis else { return nil }
        let warnings = redisWarnings
        return RedisCacheStore(url: url, keyPrefix: options.keyPrefix ?? "gateway:", poolSize: 1,
                               timeout: .seconds(5)) { warning in
            warnings.withLock { $0.append(warning) }
        }
    }

    /// Prints what the Redis store warned of while the verb ran, except a warning that only
    /// repeats why the verb failed (`failure`: Redis did not answer, which its error says, and
    /// "requests go to the network without it" means nothing to a verb that sends none).
    func printWarnings(after failure: (any Error)?) {
        let repeated = ((failure as? GatewayError)?.underlying as? RedisError)?.message
        for warning in redisWarnings.value {
            if let repeated, warning.message.contains(repeated) { continue }
            output.error("gateway cache \(options.verb): warning: \(warning)")
        }
    }

    /// The Redis cache of `--redis`, else the database opened read-only (`openForReading`).
    ///
    /// - Throws: `CacheFailure` when the database is missing, damaged or cannot be used.
    func openStoreForReading() throws -> any CacheStore {
        if let redis = redisStore() { return redis }
        return try openForReading()
    }

    /// A store opened for writing, and the warnings it reported (a damaged file it rebuilt).
    struct Writable {
        let store: SQLiteCacheStore
        let warnings: Locked<[CacheWarning]>
    }

    /// Opens an existing database read-write with the byte limit it records.
    ///
    /// It is first opened read-only: a missing file is never created, and a damaged one is
    /// reported rather than deleted unless `rebuildingDamaged` (for `purge`). Damage met later
    /// is rebuilt by the store; the warning is collected for the verb to report.
    ///
    /// - Throws: `CacheFailure` when the file is missing, damaged or cannot be used.
    func openForWriting(rebuildingDamaged: Bool = false) async throws -> Writable {
        var limit = SQLiteCacheStore.defaultByteLimit
        do {
            let reader = try openForReading()
            if let recorded = try await reader.recordedByteLimit(), recorded > 0 { limit = recorded }
        } catch {
            let failure = error as? CacheFailure ?? CacheFailure.from(error, path: path)
            // For `purge`, opening read-write below deletes a damaged file and starts an empty one.
            guard failure.kind == .damaged && rebuildingDamaged else { throw failure }
        }
        let warnings = Locked<[CacheWarning]>([])
        do {
            let store = try SQLiteCacheStore(path: path, byteLimit: limit) { warning in
                warnings.withLock { $0.append(warning) }
            }
            return Writable(store: store, warnings: warnings)
        } catch {
            throw CacheFailure.from(error, path: path)
        }
    }

    // MARK: Keys

    /// The entry whose key is `operand` or starts with it.
    ///
    /// - Throws: `UsageError` when `operand` is not hex digits; `CacheFailure` when no entry has
    ///   such a key (exit 1) or several do (exit 2).
    func record(_ operand: String, in store: any CacheStore, includeBody: Bool) async throws -> CacheRecord {
        let prefix = operand.lowercased()
        guard !prefix.isEmpty, prefix.count <= 64, prefix.allSatisfy(\.isHexDigit) else {
            throw UsageError("'\(operand)' is not a cache key: give its hex digits (any unique prefix of the 64 "
                             + "that 'gateway cache list' shows the first 12 of)")
        }
        let shown = 5
        let digests: [CacheKey.Digest]
        if let database = store as? SQLiteCacheStore {
            digests = try await database.digests(withPrefix: prefix, limit: shown + 1)
        } else {
            let matching = try await store.list(.keyPrefix(prefix), includeBodies: false).map(\.entry.key.digest)
            digests = Array(matching.sorted().prefix(shown + 1))
        }
        guard let digest = digests.first else {
            throw CacheFailure(.notFound, "no entry has a key starting with \(prefix) in \(path)",
                               fix: "'gateway cache list' shows the keys of the entries.")
        }
        guard digests.count == 1 else {
            let width = max(prefix.count + 4, 12)
            let listed = digests.prefix(shown).map { String($0.hex.prefix(width)) }.joined(separator: ", ")
            let count = digests.count > shown ? "more than \(shown)" : "\(digests.count)"
            throw CacheFailure(.ambiguous, "the key prefix \(prefix) matches \(count) entries: \(listed)",
                               fix: "Give more digits of the key.")
        }
        guard let record = try await store.list(.digest(digest), includeBodies: includeBody).first else {
            throw CacheFailure(.notFound, "the entry \(digest.hex) was removed while it was being read")
        }
        return record
    }

    // MARK: Writing

    /// Prints a JSON value, pretty, on standard output.
    func print(json value: JSONValue) { output.print(value.serialized(.pretty)) }

    /// Prints text on standard output.
    func print(_ text: String) { output.print(text) }

    /// A table rendered for this output (coloured only on a terminal without `NO_COLOR`).
    func render(_ table: TextTable) -> String { table.render(colour: output.usesColor) }
}
