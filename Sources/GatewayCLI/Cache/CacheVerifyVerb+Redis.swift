import Foundation
import Gateway
import GatewayRedis
import GraphQLLanguage

extension CacheVerifyVerb {
    /// What a Redis cache's damage calls for.
    static let redisAdvice = "'gateway cache evict KEY --redis URL' removes one entry and 'gateway cache purge "
        + "--redis URL' every one; a Provider using the cache answers a damaged entry as a miss and deletes it."

    /// `verify --redis`: every entry key under the prefix checked (`RedisCacheStore.verify`),
    /// then every listed key against the digest of its components, as for a database.
    func run(_ context: CacheContext, on store: RedisCacheStore) async throws -> Int32 {
        var problems = try await store.verify()
        var entries = 0
        if problems.isEmpty {
            let records = try await store.list(.all, includeBodies: false)
            entries = records.count
            if let problem = Self.mismatchedKeys(records) { problems.append(problem) }
        }
        let place = "\(context.path) (keys under \(store.keyPrefix))"
        if context.options.json {
            context.print(json: [
                "path": .string(context.path), "ok": .bool(problems.isEmpty),
                "problems": .array(problems.map { .string($0) }), "entries": CacheJSON.number(entries),
                "diskBytes": .null,
            ])
        } else if problems.isEmpty {
            let verdict = context.output.usesColor ? "\u{1B}[32msound\u{1B}[0m" : "sound"
            context.print("""
                Checked \(place):
                  integrity check  ok (every entry matches its checksum and is indexed)
                  keys             \(CacheFormat.count(entries, "entry", "entries")), each key the digest of its components
                The cache is \(verdict).
                """)
        } else {
            let verdict = context.output.usesColor ? "\u{1B}[31mdamaged\u{1B}[0m" : "damaged"
            let list = problems.prefix(20).map { "  - \($0)" }
            let more = problems.count > 20 ? ["  ... and \(problems.count - 20) more"] : []
            context.print((["The Redis cache at \(place) is \(verdict):"] + list + more + [Self.redisAdvice])
                .joined(separator: "\n"))
        }
        return problems.isEmpty ? 0 : 1
    }
}
