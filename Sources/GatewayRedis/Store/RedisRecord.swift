import Foundation
import Gateway

/// An entry as a Redis hash: the SQLite store's columns as fields, with the same text encodings
/// and the same checksum (`CacheStoredFields`). An absent field is SQL's NULL; numbers are decimal
/// text; times are seconds since 1970.
enum RedisRecord {
    /// The fields a listing reads, in order (the body is added when asked for).
    static let listFields = [
        "key", "kind", "partition_subject", "operation", "operation_name", "variables", "method", "endpoint", "vary",
        "tags", "status", "headers", "stored_at", "expires_at", "etag", "last_modified", "size", "hits", "last_access",
    ]

    /// `HSET` arguments for `fields`: field, value, field, value, ...
    static func hashArguments(_ fields: CacheStoredFields, into command: inout RedisCommand) {
        let entry = fields.entry
        let components = entry.key.components
        func add(_ name: String, _ value: String?) {
            guard let value else { return }
            command.append([name, value])
        }
        add("key", entry.key.hex)
        add("kind", components.kind.rawValue)
        add("name", components.name)
        add("stats_name", fields.statisticsName)
        add("partition_subject", components.partition.subject)
        add("operation", components.operation)
        add("operation_name", components.operationName)
        add("variables", components.variables)
        add("method", components.method)
        add("endpoint", components.endpoint)
        add("vary", fields.vary)
        add("tags", fields.tags)
        add("status", String(entry.status))
        add("headers", fields.headers)
        command.append("body")
        command.append(data: entry.body)
        add("size", String(fields.size))
        add("stored_at", String(entry.storedAt.timeIntervalSince1970))
        add("expires_at", entry.expiresAt.map { String($0.timeIntervalSince1970) })
        add("etag", entry.etag)
        add("last_modified", entry.lastModified)
        add("hits", "0")
        add("last_access", String(entry.storedAt.timeIntervalSince1970))
        add("checksum", String(fields.storedChecksum))
    }

    /// The fields of an `HGETALL` reply (name, value, name, value, ...); `nil` when it is not one.
    static func fields(ofHashReply reply: RESPValue) -> [String: [UInt8]]? {
        guard let items = reply.arrayValue, items.count % 2 == 0 else { return nil }
        var fields: [String: [UInt8]] = [:]
        var index = 0
        while index < items.count {
            guard let name = items[index].text, let value = items[index + 1].bytes else { return nil }
            fields[name] = value
            index += 2
        }
        return fields
    }

    /// The fields of an `HMGET` reply for `names`; absent fields are left out.
    static func fields(ofValues reply: RESPValue, names: [String]) -> [String: [UInt8]]? {
        guard let items = reply.arrayValue, items.count == names.count else { return nil }
        var fields: [String: [UInt8]] = [:]
        for (name, item) in zip(names, items) {
            if let value = item.bytes { fields[name] = value }
        }
        return fields
    }

    /// Whether the stored status, header text and body match the stored checksum; `false` when
    /// any of them is missing or unreadable.
    static func checksumMatches(_ fields: [String: [UInt8]]) -> Bool {
        RedisEntryFields(fields).checksumMatches
    }

    /// The entry of `key` from a full hash (checksum already checked); `nil` when a field is missing.
    static func entry(_ fields: [String: [UInt8]], key: CacheKey) -> CacheEntry? {
        RedisEntryFields(fields).entry(key: key)
    }

    /// A listed record from the `listFields` (and the body, when read); `nil` when a field the
    /// record needs is missing or unreadable.
    static func record(_ fields: [String: [UInt8]]) -> CacheRecord? {
        guard let kind = text(fields["kind"]).flatMap(CacheKeyComponents.Kind.init(rawValue:)),
              let endpoint = text(fields["endpoint"])
        else { return nil }
        let components = CacheStoredFields.components(
            kind: kind, partitionSubject: text(fields["partition_subject"]), operation: text(fields["operation"]),
            operationName: text(fields["operation_name"]), variables: text(fields["variables"]),
            method: text(fields["method"]), endpoint: endpoint, vary: text(fields["vary"]))
        let digest = text(fields["key"]).flatMap(CacheKey.Digest.init(hex:))
        let key = digest.map { CacheKey(digest: $0, components: components) } ?? CacheKey(components: components)
        var listed = fields
        if listed["body"] == nil { listed["body"] = [] }
        guard let entry = RedisRecord.entry(listed, key: key) else { return nil }
        return CacheRecord(entry: entry, size: integer(fields["size"]).map { Int($0) } ?? entry.byteCost,
                           hits: integer(fields["hits"]).map { Int($0) } ?? 0,
                           lastAccess: Date(timeIntervalSince1970: number(fields["last_access"]) ?? 0))
    }

    static func text(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }
    static func integer(_ bytes: [UInt8]?) -> Int64? { text(bytes).flatMap { Int64($0) } }
    static func number(_ bytes: [UInt8]?) -> Double? { text(bytes).flatMap { Double($0) } }
}
