/// XXH64, a fast 64-bit hash (not cryptographic), for the checksums of cached entries.
///
/// A checksum guards against accidental damage (a flipped bit, a torn or edited file), not
/// against someone forging an entry, so it need not be cryptographic; it is checked on every
/// cache hit, so it must be cheap. XXH64 reads 32 bytes per round (several GB/s), where SHA-256
/// (`SHA256` in GraphQLLanguage, about 186 MB/s here) would cost about 11 µs for a 2 KB body, many times a memory
/// hit. Random damage goes unnoticed with a chance of 2⁻⁶⁴.
///
/// Follows the XXH64 specification (Yann Collet, xxHash): the same input and seed give the same
/// value on every platform.
enum XXHash64 {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The hash of `bytes` with `seed`.
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let count = bytes.count
        var offset = 0
        var hash: UInt64
        if count >= 32 {
            var lanes = (seed &+ prime1 &+ prime2, seed &+ prime2, seed, seed &- prime1)
            while offset + 32 <= count {
                lanes.0 = round(lanes.0, word(bytes, offset))
                lanes.1 = round(lanes.1, word(bytes, offset + 8))
                lanes.2 = round(lanes.2, word(bytes, offset + 16))
                lanes.3 = round(lanes.3, word(bytes, offset + 24))
                offset += 32
            }
            hash = rotated(lanes.0, 1) &+ rotated(lanes.1, 7) &+ rotated(lanes.2, 12) &+ rotated(lanes.3, 18)
            hash = merged(hash, lanes.0)
            hash = merged(hash, lanes.1)
            hash = merged(hash, lanes.2)
            hash = merged(hash, lanes.3)
        } else {
            hash = seed &+ prime5
        }
        hash &+= UInt64(count)
        while offset + 8 <= count {
            hash ^= round(0, word(bytes, offset))
            hash = rotated(hash, 27) &* prime1 &+ prime4
            offset += 8
        }
        if offset + 4 <= count {
            let half = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            hash ^= UInt64(half) &* prime1
            hash = rotated(hash, 23) &* prime2 &+ prime3
            offset += 4
        }
        while offset < count {
            hash ^= UInt64(bytes[offset]) &* prime5
            hash = rotated(hash, 11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return hash
    }

    /// The hash of the UTF-8 bytes of `text` with `seed`.
    static func hash(_ text: String, seed: UInt64) -> UInt64 {
        if let hash = text.utf8.withContiguousStorageIfAvailable({ hash(UnsafeRawBufferPointer($0), seed: seed) }) {
            return hash
        }
        var text = text
        return text.withUTF8 { hash(UnsafeRawBufferPointer($0), seed: seed) }
    }

    private static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotated(accumulator &+ input &* prime2, 31) &* prime1
    }

    private static func merged(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
        (hash ^ round(0, lane)) &* prime1 &+ prime4
    }

    private static func rotated(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }
}
