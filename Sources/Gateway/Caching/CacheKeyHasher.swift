import GraphQLLanguage

/// Feeds cache-key components into SHA-256, each one length-prefixed.
///
/// Every component is written as its UTF-8 byte count (8 bytes, big-endian) and then its bytes;
/// an absent component is the count `UInt64.max` and no bytes. So no choice of values can make
/// two different component lists produce the same hashed bytes: separators such as `,` `:` `"`
/// or NUL inside a value are just bytes of that value.
///
/// A hasher is a value: copying one after the per-operation components have been added and then
/// adding the rest gives the same digest as hashing everything from the start.
struct CacheKeyHasher: Sendable {
    /// The first component of every key; a new layout gets a new tag, so old keys never match.
    static let layoutTag = "gateway.cache-key/1"

    private var sha = SHA256()

    init() { add(CacheKeyHasher.layoutTag) }

    /// Adds one component; `nil` is absent, which is different from empty.
    mutating func add(_ text: String?) {
        guard var text else {
            addCount(UInt64.max)
            return
        }
        text.withUTF8 { bytes in
            addCount(UInt64(bytes.count))
            sha.update(buffer: UnsafeRawBufferPointer(bytes))
        }
    }

    /// Adds one component given as UTF-8 bytes.
    mutating func add(bytes: UnsafeRawBufferPointer) {
        addCount(UInt64(bytes.count))
        sha.update(buffer: bytes)
    }

    /// Adds a count (how many components follow, for lists such as `Vary` headers).
    mutating func addCount(_ count: UInt64) {
        withUnsafeBytes(of: count.bigEndian) { sha.update(buffer: $0) }
    }

    /// The digest of everything added.
    consuming func finish() -> CacheKey.Digest {
        let words = sha.finalizeWords()
        return CacheKey.Digest(
            UInt64(words.0) << 32 | UInt64(words.1), UInt64(words.2) << 32 | UInt64(words.3),
            UInt64(words.4) << 32 | UInt64(words.5), UInt64(words.6) << 32 | UInt64(words.7))
    }
}
