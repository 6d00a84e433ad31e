/// SHA-256 (FIPS 180-4), for cache keys and persisted-query hashes.
///
/// Our own implementation because CryptoKit is not on Linux and the package takes no dependencies.
/// Feed bytes with `update`, then read `finalize()`; or hash in one call with `SHA256.hash(_:)`.
///
/// The state, including the partial block, lives inline: copying a hasher (to continue from a
/// common prefix) and hashing short inputs allocate nothing until the digest array is made.
package struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// Bytes not yet compressed: the first `pendingCount` bytes of these 64.
    private var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var pendingCount = 0
    private var length: UInt64 = 0

    /// Starts a new hash.
    package init() {}

    /// Hashes `bytes` in one call and returns the 32-byte digest.
    package static func hash<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Hashes the UTF-8 bytes of `text` and returns the digest as 64 lower-case hex digits.
    package static func hexDigest(_ text: String) -> String {
        var hasher = SHA256()
        hasher.update(text)
        return hex(hasher.finalize())
    }

    /// Adds the UTF-8 bytes of `text`.
    package mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { update(buffer: UnsafeRawBufferPointer($0)) }
    }

    /// Adds bytes.
    package mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { update(buffer: UnsafeRawBufferPointer($0)) }
        if handled == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { update(buffer: $0) }
        }
    }

    /// Adds the bytes of a raw buffer.
    package mutating func update(buffer: UnsafeRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return }
        length &+= UInt64(buffer.count)
        var offset = 0
        if pendingCount > 0 {
            let take = min(64 - pendingCount, buffer.count)
            let start = pendingCount
            withUnsafeMutableBytes(of: &pending) { block in
                block.baseAddress?.advanced(by: start).copyMemory(from: base, byteCount: take)
            }
            pendingCount += take
            offset = take
            guard pendingCount == 64 else { return }
            var block = pending
            withUnsafeBytes(of: &block) { compress($0.baseAddress.unsafelyUnwrapped) }
            pendingCount = 0
        }
        while buffer.count - offset >= 64 {
            compress(base.advanced(by: offset))
            offset += 64
        }
        let rest = buffer.count - offset
        if rest > 0 {
            withUnsafeMutableBytes(of: &pending) { block in
                block.baseAddress?.copyMemory(from: base.advanced(by: offset), byteCount: rest)
            }
            pendingCount = rest
        }
    }

    /// Pads, compresses the last blocks and returns the 32-byte digest.
    package consuming func finalize() -> [UInt8] {
        var words = finalizeWords()
        return [UInt8](unsafeUninitializedCapacity: 32) { digest, initialized in
            withUnsafeBytes(of: &words) { raw in
                for index in 0..<8 {
                    let word = raw.load(fromByteOffset: index * 4, as: UInt32.self)
                    digest[index * 4] = UInt8(truncatingIfNeeded: word >> 24)
                    digest[index * 4 + 1] = UInt8(truncatingIfNeeded: word >> 16)
                    digest[index * 4 + 2] = UInt8(truncatingIfNeeded: word >> 8)
                    digest[index * 4 + 3] = UInt8(truncatingIfNeeded: word)
                }
            }
            initialized = 32
        }
    }

    /// Pads, compresses the last blocks and returns the digest as its eight 32-bit words (the
    /// digest bytes are each word big-endian, in order), without allocating.
    package consuming func finalizeWords() -> (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) {
        let bitLength = length &* 8
        var block = pending
        let count = pendingCount
        withUnsafeMutableBytes(of: &block) { bytes in
            bytes[count] = 0x80
            for index in (count + 1)..<64 { bytes[index] = 0 }
        }
        if count >= 56 {
            withUnsafeBytes(of: &block) { compress($0.baseAddress.unsafelyUnwrapped) }
            block = (0, 0, 0, 0, 0, 0, 0, 0)
        }
        withUnsafeMutableBytes(of: &block) { bytes in
            for index in 0..<8 { bytes[56 + index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(56 - 8 * index)) }
        }
        withUnsafeBytes(of: &block) { compress($0.baseAddress.unsafelyUnwrapped) }
        return state
    }

    /// Lower-case hexadecimal text of `bytes`.
    package static func hex(_ bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 &- n)) }

    /// One round: updates `d` and `h` (the other six are renamed by the caller's argument order).
    @inline(__always)
    private static func round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32,
                              _ g: UInt32, _ h: inout UInt32, _ kw: UInt32) {
        let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ kw
        let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
        d = d &+ t1
        h = t1 &+ t2
    }

    /// Compresses the 64 bytes at `block` into the state.
    private mutating func compress(_ block: UnsafeRawPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            guard let w = schedule.baseAddress else { return }
            for i in 0..<16 {
                w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self))
            }
            var i = 16
            while i < 64 {
                let x = w[i &- 15], y = w[i &- 2]
                let s0 = SHA256.rotr(x, 7) ^ SHA256.rotr(x, 18) ^ (x >> 3)
                let s1 = SHA256.rotr(y, 17) ^ SHA256.rotr(y, 19) ^ (y >> 10)
                w[i] = w[i &- 16] &+ s0 &+ w[i &- 7] &+ s1
                i &+= 1
            }
            var (a, b, c, d, e, f, g, h) = state
            SHA256.roundConstants.withUnsafeBufferPointer { constants in
                guard let k = constants.baseAddress else { return }
                var i = 0
                while i < 64 {
                    SHA256.round(a, b, c, &d, e, f, g, &h, k[i] &+ w[i])
                    SHA256.round(h, a, b, &c, d, e, f, &g, k[i &+ 1] &+ w[i &+ 1])
                    SHA256.round(g, h, a, &b, c, d, e, &f, k[i &+ 2] &+ w[i &+ 2])
                    SHA256.round(f, g, h, &a, b, c, d, &e, k[i &+ 3] &+ w[i &+ 3])
                    SHA256.round(e, f, g, &h, a, b, c, &d, k[i &+ 4] &+ w[i &+ 4])
                    SHA256.round(d, e, f, &g, h, a, b, &c, k[i &+ 5] &+ w[i &+ 5])
                    SHA256.round(c, d, e, &f, g, h, a, &b, k[i &+ 6] &+ w[i &+ 6])
                    SHA256.round(b, c, d, &e, f, g, h, &a, k[i &+ 7] &+ w[i &+ 7])
                    i &+= 8
                }
            }
            state = (
                state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
                state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h
            )
        }
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}
