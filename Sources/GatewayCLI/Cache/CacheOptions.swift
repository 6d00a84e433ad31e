import Foundation
import Gateway
import GatewayRedis

/// The command line of `gateway cache`, read once for every verb: the verb, its operands, the
/// options every verb takes and the filters some take.
struct CacheOptions: Sendable {
    /// A filter or choice only some verbs take.
    enum Option: String, Sendable, CaseIterable {
        case operation, partition, expired, tag, sort
    }

    /// The orders `list` knows; each puts the largest value first.
    enum Sort: String, Sendable, CaseIterable {
        /// Oldest first (by storage time).
        case age
        /// Largest first.
        case size
        /// Most hit first.
        case hits
    }

    /// The verb (`list`, `show`, ...).
    var verb: String
    /// The operands after the verb (keys).
    var operands: [String]
    /// `--db PATH`.
    var database: String?
    /// `--redis URL`: the Redis cache instead of the SQLite database.
    var redis: RedisURL?
    /// `--prefix PREFIX`: the Redis cache's key prefix (`gateway:` when not given).
    var keyPrefix: String?
    /// `--json`.
    var json = false
    /// `--redact NAME`, every one given.
    var redact: [String] = []
    /// `--operation NAME`.
    var operation: String?
    /// `--partition ID`.
    var partition: CachePartition?
    /// `--expired`.
    var expired = false
    /// `--tag TAG`.
    var tag: String?
    /// `--sort age|size|hits`.
    var sort: Sort?
    /// Which of the filters and choices were given, to check them against the verb.
    var given: [Option] = []

    /// Reads every option; what is left are the verb and its operands.
    ///
    /// - Throws: `UsageError` for a missing value, a bad choice or an unknown option.
    init(parsing arguments: inout Arguments) throws(UsageError) {
        database = try arguments.option("db")
        if let text = try arguments.option("redis") {
            do {
                redis = try RedisURL(text)
            } catch {
                throw UsageError("--redis: \(error)")
            }
        }
        keyPrefix = try arguments.option("prefix")
        json = arguments.flag("json")
        redact = try arguments.options("redact")
        operation = try arguments.option("operation")
        if let text = try arguments.option("partition") { partition = try Self.partition(text) }
        expired = arguments.flag("expired")
        tag = try arguments.option("tag")
        if let text = try arguments.choice("sort", Sort.allCases.map(\.rawValue)) { sort = Sort(rawValue: text) }
        let positionals = try arguments.positionals()
        verb = positionals.first ?? ""
        operands = Array(positionals.dropFirst())

        if database?.isEmpty == true { throw UsageError("--db needs a file path") }
        if database != nil, redis != nil { throw UsageError("give --db PATH or --redis URL, not both") }
        if keyPrefix != nil, redis == nil { throw UsageError("--prefix needs --redis URL (it is the Redis key prefix)") }
        if let name = redact.first(where: \.isEmpty) { throw UsageError("--redact needs a field name; got '\(name)'") }
        if operation?.isEmpty == true { throw UsageError("--operation needs an operation name or URL") }
        if tag?.isEmpty == true { throw UsageError("--tag needs a tag") }
        if operation != nil { given.append(.operation) }
        if partition != nil { given.append(.partition) }
        if expired { given.append(.expired) }
        if tag != nil { given.append(.tag) }
        if sort != nil { given.append(.sort) }
    }

    /// `anonymous`, `subject:ID` or a bare `ID` (a subject literally named `anonymous` is `subject:anonymous`).
    static func partition(_ text: String) throws(UsageError) -> CachePartition {
        if text == "anonymous" { return .anonymous }
        if text.hasPrefix("subject:") { return .subject(String(text.dropFirst("subject:".count))) }
        guard !text.isEmpty else { throw UsageError("--partition needs a subject, or 'anonymous'") }
        return .subject(text)
    }

    /// The filters as a store selection (`now` decides what is expired).
    func selection(now: Date) -> CacheSelection {
        CacheSelection(operation: operation, tag: tag, partition: partition, expiredAt: expired ? now : nil)
    }

    /// Whether any filter was given.
    var hasFilters: Bool { operation != nil || partition != nil || expired || tag != nil }
}
