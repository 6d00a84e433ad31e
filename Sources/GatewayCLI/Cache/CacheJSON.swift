import Foundation
import Gateway
import GraphQLLanguage

/// The machine form of entries and key components that `--json` and `export` print.
///
/// Times are ISO 8601 in UTC; `ageSeconds` and `expiresInSeconds` (negative once expired, `null`
/// for an entry that never expires) are judged at the command's moment. Every value that can
/// hold a secret goes through the `CacheRedactor` first.
enum CacheJSON {
    /// One entry without its body and headers: what `list --json` prints per entry.
    static func summary(_ record: CacheRecord, now: Date, redactor: CacheRedactor) -> JSONValue {
        let entry = record.entry
        let components = entry.key.components
        var object: JSONObject = [
            "key": .string(entry.key.hex),
            "shortKey": .string(CacheFormat.shortKey(entry.key.digest)),
            "kind": .string(components.kind.rawValue),
            "name": .string(name(components, redactor: redactor)),
            "partition": partition(components.partition),
            "size": number(record.size),
            "hits": number(record.hits),
            "status": number(entry.status),
            "tags": .array(entry.tags.map { .string(redactor.text($0)) }),
            "storedAt": .string(CacheFormat.iso8601(entry.storedAt)),
            "expiresAt": entry.expiresAt.map { .string(CacheFormat.iso8601($0)) } ?? .null,
            "lastAccess": .string(CacheFormat.iso8601(record.lastAccess)),
            "expired": .bool(!entry.isFresh(at: now)),
            "ageSeconds": seconds(now.timeIntervalSince(entry.storedAt)),
            "expiresInSeconds": entry.expiresAt.map { seconds($0.timeIntervalSince(now)) } ?? .null,
        ]
        if components.kind == .graphql {
            object.members.insert(.init(key: "operationName", value: components.operationName.map { .string($0) }
                                            ?? .null), at: 4)
        } else {
            object.members.insert(.init(key: "method", value: .string(components.method ?? "GET")), at: 4)
        }
        return .object(object)
    }

    /// One entry with everything: its key components, headers, validators and body. What
    /// `show --json` prints, and `export` prints one per line.
    static func detail(_ record: CacheRecord, now: Date, redactor: CacheRedactor) -> JSONValue {
        let entry = record.entry
        guard case .object(var object) = summary(record, now: now, redactor: redactor) else { return .null }
        object.members.append(.init(key: "components", value: components(entry.key.components, redactor: redactor)))
        object.members.append(.init(key: "headers", value: .array(redactor.headers(entry.headers).map { field in
            .object(["name": .string(field.name), "value": .string(field.value)])
        })))
        object.members.append(.init(key: "etag", value: entry.etag.map { .string($0) } ?? .null))
        object.members.append(.init(key: "lastModified", value: entry.lastModified.map { .string($0) } ?? .null))
        object.members.append(.init(key: "bodyBytes", value: number(entry.body.count)))
        switch redactor.body(entry.body, contentType: entry.headers["Content-Type"]) {
        case .empty: object.members.append(.init(key: "body", value: .null))
        case .json(let value): object.members.append(.init(key: "body", value: value))
        case .text(let text): object.members.append(.init(key: "bodyText", value: .string(text)))
        case .binary: object.members.append(.init(key: "body", value: .null))
        }
        return .object(object)
    }

    /// The key components in hashing order: `kind`, then `operation`, `operationName`,
    /// `variables` (as JSON) and `endpoint` for GraphQL, or `method`, `url` and one `vary:NAME`
    /// per header for REST, then `partition`.
    static func components(_ components: CacheKeyComponents, redactor: CacheRedactor) -> JSONValue {
        .array(components.explained.map { component in
            .object(["name": .string(component.name), "value": value(of: component, redactor: redactor)])
        })
    }

    /// A component's value as JSON, redacted: variables as a JSON value, the rest as text.
    static func value(of component: CacheKeyComponent, redactor: CacheRedactor) -> JSONValue {
        guard let value = component.value else { return .null }
        switch component.name {
        case "variables": return redactor.variables(value)
        case "url", "endpoint": return .string(redactor.url(value))
        case "operation": return .string(redactor.text(value))
        case "kind", "method", "operationName", "partition": return .string(value)
        default:
            if component.name.hasPrefix("vary:") {
                return .string(redactor.header(String(component.name.dropFirst(5)), value))
            }
            return .string(redactor.text(value))
        }
    }

    /// The operation name (or `(anonymous)`), or the redacted REST URL.
    static func name(_ components: CacheKeyComponents, redactor: CacheRedactor) -> String {
        components.kind == .rest ? redactor.url(components.endpoint) : components.name
    }

    /// `null` for anonymous, else the subject.
    static func partition(_ partition: CachePartition) -> JSONValue { partition.subject.map { .string($0) } ?? .null }

    static func number(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

    /// Seconds to the millisecond.
    static func seconds(_ value: TimeInterval) -> JSONValue {
        JSONNumber((value * 1000).rounded() / 1000).map { .number($0) } ?? .null
    }
}
