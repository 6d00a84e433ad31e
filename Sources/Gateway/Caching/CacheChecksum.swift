import Foundation

/// The checksums the cache stores keep of what an entry serves (its status, header fields and
/// body), so that damaged bytes are found when the entry is read instead of being served.
///
/// XXH64 (`XXHash64`): damage is accidental (a flipped bit, a torn or edited file), and the sum is
/// checked on every hit, where SHA-256 would cost more than the rest of a memory hit.
package enum CacheChecksum {
    /// The checksum of an entry's status, header fields and body, as a memory store keeps them.
    package static func of(_ entry: CacheEntry) -> UInt64 {
        var sum = UInt64(bitPattern: Int64(entry.status))
        for field in entry.headers {
            sum = XXHash64.hash(field.name, seed: sum)
            sum = XXHash64.hash(field.value, seed: sum)
        }
        return entry.body.withUnsafeBytes { XXHash64.hash($0, seed: sum) }
    }

    /// The checksum of an entry as a database stores it: its status, its header fields as stored
    /// text (`CacheStorageCoding.encodeHeaders`) and its body.
    package static func of(status: Int, headers: UnsafeRawBufferPointer, body: UnsafeRawBufferPointer) -> UInt64 {
        XXHash64.hash(body, seed: XXHash64.hash(headers, seed: UInt64(bitPattern: Int64(status))))
    }

    /// `of(status:headers:body:)` for header text and a body in memory.
    package static func of(status: Int, headers: String, body: Data) -> UInt64 {
        var headers = headers
        return headers.withUTF8 { text in
            body.withUnsafeBytes { of(status: status, headers: UnsafeRawBufferPointer(text), body: $0) }
        }
    }
}
