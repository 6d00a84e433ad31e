import Foundation
import Gateway

extension RedisCacheStore {
    /// How many keys one `SCAN` step asks for, and how many entries one pipeline reads.
    static let inspectionBatch = 256

    /// Checks every entry under the key prefix, read-only: each must be a hash whose stored
    /// status, header text and body match its checksum, whose fields make a record, whose name
    /// is its key, and which the index of all entries lists (a logout purge and `list` read the
    /// indexes; an entry missing from them is invisible to both).
    ///
    /// Nothing is repaired and no hit is counted: a damaged entry stays for the caller to see
    /// (a `get` deletes it).
    ///
    /// - Returns: the problems found, one sentence each; empty when every entry is sound.
    /// - Throws: `GatewayError` of kind `.cache` when Redis is unavailable.
    public func verify() async throws -> [String] {
        let action = "check the cache entries"
        let names = try await entryNames(action: action)
        guard !names.isEmpty else { return [] }
        let listed = try await answers(to: [RedisCommand("ZRANGE", keys.all, "0", "-1")], action: action)
        let indexed = Set((listed.first?.arrayValue ?? []).compactMap(\.text))
        var problems: [String] = []
        var start = 0
        while start < names.count {
            let batch = names[start..<min(start + Self.inspectionBatch, names.count)]
            start += batch.count
            let replies = try await answers(to: batch.map { RedisCommand("HGETALL", $0) }, action: action)
            for (name, reply) in zip(batch, replies) {
                if let problem = Self.problem(of: name, reply: reply, prefix: keys.entry(hex: ""), indexed: indexed) {
                    problems.append(problem)
                }
            }
        }
        return problems
    }

    /// What is wrong with the entry `name` read as `reply` to `HGETALL`; `nil` when it is sound
    /// or gone (it expired since it was found).
    static func problem(of name: String, reply: RESPValue, prefix: String, indexed: Set<String>) -> String? {
        let hex = String(name.dropFirst(prefix.count))
        if let message = reply.errorMessage {
            return "the key \(name) is not an entry's hash (Redis answered: \(message)); "
                + "something other than Gateway wrote it"
        }
        guard let fields = RedisRecord.fields(ofHashReply: reply) else {
            return "the key \(name) could not be read as an entry's hash"
        }
        guard !fields.isEmpty else { return nil }
        let label = RedisRecord.text(fields["name"]).map { "\(hex) (\($0))" } ?? hex
        guard RedisRecord.checksumMatches(fields) else {
            return "the entry \(label) does not match its checksum: its stored bytes were damaged"
        }
        guard let record = RedisRecord.record(fields) else {
            return "the entry \(label) lacks fields a cache entry has (kind, endpoint, status or times)"
        }
        guard record.entry.key.hex == hex else {
            return "the entry \(label) is stored under another key's name (its key field is "
                + "\(record.entry.key.hex))"
        }
        guard indexed.contains(hex) else {
            return "the entry \(label) is missing from the index of all entries, so 'list', 'purge' and "
                + "invalidations do not see it (was the index evicted under maxmemory-policy allkeys-lru?)"
        }
        return nil
    }

    /// The names of every entry key under the prefix, found with `SCAN` (which never blocks the
    /// server for long), sorted.
    func entryNames(action: String) async throws -> [String] {
        let pattern = Self.globEscaped(keys.entry(hex: "")) + "*"
        var names: Set<String> = []
        var cursor = "0"
        repeat {
            let reply = try await answers(
                to: [RedisCommand("SCAN", cursor, "MATCH", pattern, "COUNT", String(Self.inspectionBatch))],
                action: action)
            guard let parts = reply.first?.arrayValue, parts.count == 2, let next = parts[0].text,
                  let found = parts[1].arrayValue
            else {
                throw GatewayError(.cache, "could not \(action): Redis at \(client.url) answered SCAN with "
                                   + "\(reply.first?.errorMessage ?? "an unexpected reply")")
            }
            names.formUnion(found.compactMap(\.text))
            cursor = next
        } while cursor != "0"
        return names.sorted()
    }

    /// `text` with the characters `SCAN MATCH` treats as a pattern escaped.
    static func globEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "*?[]\\".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
