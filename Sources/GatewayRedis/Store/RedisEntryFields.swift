import Foundation
import Gateway

/// The fields of a stored entry that a look-up needs (`RedisRecord.entryFields`): read by
/// position from an `HMGET` reply on a hit, or by name from a whole hash (`HGETALL`, a listing).
/// An absent field is `nil`.
///
/// The checksum covers the status, the header text and the body as stored; an entry whose fields
/// do not match it is not an entry (the caller treats it as a miss).
struct RedisEntryFields {
    var status: [UInt8]?
    var headers: [UInt8]?
    var body: [UInt8]?
    var tags: [UInt8]?
    var storedAt: [UInt8]?
    var expiresAt: [UInt8]?
    var etag: [UInt8]?
    var lastModified: [UInt8]?
    var checksum: [UInt8]?

    /// The names an `HMGET` asks for, in the order `init?(values:)` reads the reply.
    static let names = ["status", "headers", "body", "tags", "stored_at", "expires_at", "etag", "last_modified",
                        "checksum"]
    /// `names` as command arguments, made once.
    static let nameArguments = names.map { Array($0.utf8) }

    /// The fields of an `HMGET` of `names`; `nil` when the reply is not one, or when every field
    /// is absent (no entry).
    init?(values reply: RESPValue) {
        guard case .array(let items) = reply, items.count == Self.names.count else { return nil }
        func value(_ index: Int) -> [UInt8]? {
            if case .bulkString(let bytes) = items[index] { return bytes }
            return nil
        }
        self.init(status: value(0), headers: value(1), body: value(2), tags: value(3), storedAt: value(4),
                  expiresAt: value(5), etag: value(6), lastModified: value(7), checksum: value(8))
        guard status != nil || headers != nil || body != nil || checksum != nil || storedAt != nil else { return nil }
    }

    /// The fields of a whole hash, by name.
    init(_ fields: [String: [UInt8]]) {
        self.init(status: fields["status"], headers: fields["headers"], body: fields["body"], tags: fields["tags"],
                  storedAt: fields["stored_at"], expiresAt: fields["expires_at"], etag: fields["etag"],
                  lastModified: fields["last_modified"], checksum: fields["checksum"])
    }

    private init(status: [UInt8]?, headers: [UInt8]?, body: [UInt8]?, tags: [UInt8]?, storedAt: [UInt8]?,
                 expiresAt: [UInt8]?, etag: [UInt8]?, lastModified: [UInt8]?, checksum: [UInt8]?) {
        self.status = status
        self.headers = headers
        self.body = body
        self.tags = tags
        self.storedAt = storedAt
        self.expiresAt = expiresAt
        self.etag = etag
        self.lastModified = lastModified
        self.checksum = checksum
    }

    /// Whether the stored status, header text and body match the stored checksum; `false` when
    /// any of them is missing or unreadable.
    var checksumMatches: Bool {
        guard let status = RedisRecord.integer(status), let headers, let body,
              let checksum = RedisRecord.integer(checksum)
        else { return false }
        return headers.withUnsafeBytes { headerBytes in
            body.withUnsafeBytes { bodyBytes in
                CacheStoredFields.matches(status: Int(status), headers: headerBytes, body: bodyBytes,
                                          storedChecksum: checksum)
            }
        }
    }

    /// The entry of `key` (its checksum already checked); `nil` when a field it needs is missing.
    func entry(key: CacheKey) -> CacheEntry? {
        guard let status = RedisRecord.integer(status), let headers, let body,
              let storedAt = RedisRecord.number(storedAt)
        else { return nil }
        return CacheEntry(
            key: key, status: Int(status), headers: headers.withUnsafeBytes { CacheStorageCoding.decodeHeaders($0) },
            body: Data(body), tags: Self.tags(tags),
            storedAt: Date(timeIntervalSince1970: storedAt),
            expiresAt: RedisRecord.number(expiresAt).map(Date.init(timeIntervalSince1970:)),
            etag: RedisRecord.text(etag), lastModified: RedisRecord.text(lastModified))
    }

    /// The stored tags; an entry without tags (`[]`, the common case) decodes no JSON.
    private static func tags(_ bytes: [UInt8]?) -> [String] {
        guard let bytes, bytes.count != 2 || bytes[0] != UInt8(ascii: "[") || bytes[1] != UInt8(ascii: "]") else {
            return []
        }
        return CacheStorageCoding.decodeTags(String(decoding: bytes, as: UTF8.self))
    }
}
