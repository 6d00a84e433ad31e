import Foundation
import Gateway

/// What an instance publishes on the removal channel after it removed entries: its own
/// identifier (so that it skips its own notices) and the selection, as JSON.
struct RedisRemovalNotice: Codable, Sendable, Hashable {
    /// The publishing store's random identifier.
    var from: String
    var key: String?
    var keyPrefix: String?
    var operation: String?
    var tag: String?
    /// Whether a partition is selected: `subject` is then its subject (`nil`: anonymous).
    var partitioned: Bool
    var subject: String?
    /// Seconds since 1970.
    var expiredAt: Double?

    init(from: String, selection: CacheSelection) {
        self.from = from
        key = selection.key?.hex
        keyPrefix = selection.keyPrefix
        operation = selection.operation
        tag = selection.tag
        partitioned = selection.partition != nil
        subject = selection.partition?.subject
        expiredAt = selection.expiredAt?.timeIntervalSince1970
    }

    /// The selection the notice names; `nil` when its key is not a digest.
    var selection: CacheSelection? {
        var digest: CacheKey.Digest?
        if let key {
            guard let parsed = CacheKey.Digest(hex: key) else { return nil }
            digest = parsed
        }
        return CacheSelection(key: digest, keyPrefix: keyPrefix, operation: operation, tag: tag,
                              partition: partitioned ? CachePartition(subject: subject) : nil,
                              expiredAt: expiredAt.map(Date.init(timeIntervalSince1970:)))
    }

    /// The notice as the bytes published.
    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(self)).map { [UInt8]($0) } ?? []
    }

    /// A published notice; `nil` when the bytes are not one.
    static func decode(_ bytes: [UInt8]) -> RedisRemovalNotice? {
        try? JSONDecoder().decode(RedisRemovalNotice.self, from: Data(bytes))
    }
}
