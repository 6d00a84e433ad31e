import Foundation
import Gateway

/// What the `gateway cache` tool needs beyond the `CacheStore` protocol: the digests a key
/// prefix names, what the writer recorded about the database, and why an open or a read failed.
///
/// Every method here only reads; on a `.readOnly` store none of them writes, checkpoints or
/// repairs anything, so they never disturb a process writing the same file.
extension SQLiteCacheStore {
    /// Why a cache database could not be used.
    package enum Failure: Sendable, Hashable {
        /// There is no file at the path.
        case missing
        /// The file is damaged or not a database at all (a garbage header, a damaged page).
        case damaged
        /// The file is a SQLite database but not a Gateway cache.
        case foreign
        /// The file was written by a newer Gateway.
        case newerSchema
        /// Another process held a lock for longer than the busy timeout.
        case busy
        /// Anything else: permissions, a directory in the way, a full disk.
        case other
    }

    /// Sorts an error thrown by a store (or by its initializer) into a `Failure`.
    package static func failure(of error: any Error) -> Failure {
        var current: (any Error)? = error
        var depth = 0
        while let error = current, depth < 8 {
            switch error {
            case let error as SQLiteError where error.isCorruption: return .damaged
            case let error as SQLiteError where error.isBusy: return .busy
            case SQLiteSchemaError.foreign: return .foreign
            case SQLiteSchemaError.newer: return .newerSchema
            case let error as SQLiteFileError where error.code == ENOENT: return .missing
            case let error as GatewayError: current = error.underlying
            default: return .other
            }
            depth += 1
        }
        return .other
    }

    /// SQLite's own words for the failure underneath `error` (`file is not a database`), if any.
    package static func sqliteMessage(of error: any Error) -> String? {
        var current: (any Error)? = error
        var depth = 0
        while let error = current, depth < 8 {
            if let error = error as? SQLiteError { return error.message }
            current = (error as? GatewayError)?.underlying
            depth += 1
        }
        return nil
    }

    /// The digests of the entries whose hex key starts with `prefix` (case-insensitive), at most
    /// `limit` of them, in key order. A prefix that is not hex digits matches nothing.
    ///
    /// - Throws: `GatewayError` of kind `.cache` when the database cannot be read.
    package func digests(withPrefix prefix: String, limit: Int) async throws -> [CacheKey.Digest] {
        let filter = SQLiteSelection(.keyPrefix(prefix))
        guard !filter.matchesNothing, limit > 0 else { return [] }
        return try database.perform("read", fallback: []) { session, connection in
            guard session.hasSchema else { return [] }
            let statement = try connection.statement(
                "SELECT key FROM entries\(filter.whereClause) ORDER BY key LIMIT \(limit)")
            defer { statement.reset() }
            filter.bind(to: statement)
            var digests: [CacheKey.Digest] = []
            while try statement.step() {
                if let digest = statement.text(0).flatMap(CacheKey.Digest.init(hex:)) { digests.append(digest) }
            }
            return digests
        }
    }

    /// What the database records about itself: `byte_limit` (the limit of the last read-write
    /// store that opened it, in bytes) and `created_at` (ISO 8601). Empty for a file without tables.
    ///
    /// - Throws: `GatewayError` of kind `.cache` when the database cannot be read.
    package func metadata() async throws -> [String: String] {
        try database.perform("read", fallback: [:]) { session, connection in
            guard session.hasSchema else { return [:] }
            let statement = try connection.statement("SELECT name, value FROM meta")
            defer { statement.reset() }
            var values: [String: String] = [:]
            while try statement.step() {
                if let name = statement.text(0) { values[name] = statement.text(1) ?? "" }
            }
            return values
        }
    }

    /// The byte limit the database records (see `metadata()`), or `nil` when it records none.
    package func recordedByteLimit() async throws -> Int? {
        try await metadata()["byte_limit"].flatMap { Int($0) }
    }
}
