/// Compressed bodies that inflate to far more than they weigh, for testing response size limits
/// counted after decompression.
///
/// The stream is one fixed-Huffman DEFLATE block (RFC 1951 §3.2.6): a literal zero byte, then
/// matches of 258 bytes at distance 1, 13 bits each, so it inflates about 159 times. Building it
/// needs no compression library.
///
/// ```swift
/// let server = try LoopbackServer { _ in
///     LoopbackResponse(headers: ["Content-Encoding": "gzip"], body: Data(CompressionBomb.gzip(inflatingTo: 1 << 28)))
/// }
/// ```
public enum CompressionBomb {
    /// A raw DEFLATE stream that inflates to `count` zero bytes (at least 1).
    public static func deflateStream(inflatingTo count: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL: the last block.
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes.
        bits.writeCode(0x30, length: 8)  // The literal 0.
        var remaining = max(1, count) - 1
        while remaining >= 258 {
            bits.writeCode(0xC5, length: 8)  // Length code 285: 258 bytes, no extra bits.
            bits.writeCode(0, length: 5)  // Distance code 0: distance 1.
            remaining -= 258
        }
        for _ in 0..<remaining { bits.writeCode(0x30, length: 8) }
        bits.writeCode(0, length: 7)  // End of block (code 256).
        return bits.finished
    }

    /// A zlib stream (`Content-Encoding: deflate`, RFC 1950) that inflates to `count` zero bytes,
    /// with its Adler-32 checksum.
    public static func zlib(inflatingTo count: Int) -> [UInt8] {
        let count = max(1, count)
        // Adler-32 of n zero bytes: A stays 1, B grows by 1 per byte.
        let adler = UInt32(count % 65521) << 16 | 1
        return [0x78, 0x01] + deflateStream(inflatingTo: count) + bigEndian(adler)
    }

    /// A gzip stream (`Content-Encoding: gzip`, RFC 1952) that inflates to `count` zero bytes.
    ///
    /// Its CRC-32 is left zero, so a client that inflates it to the end reports a corrupt body: it
    /// is meant to be stopped by a size limit long before the trailer.
    public static func gzip(inflatingTo count: Int) -> [UInt8] {
        let count = max(1, count)
        let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        let size = UInt32(truncatingIfNeeded: count)
        return header + deflateStream(inflatingTo: count) + [0, 0, 0, 0] + bigEndian(size).reversed()
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Packs bits as DEFLATE does: fields from the least significant bit, Huffman codes from the most.
    private struct BitWriter {
        var bytes: [UInt8] = []
        var current: UInt8 = 0
        var used = 0

        mutating func writeBit(_ bit: UInt32) {
            current |= UInt8(bit & 1) << used
            used += 1
            if used == 8 { flush() }
        }

        mutating func write(_ value: UInt32, count: Int) {
            for index in 0..<count { writeBit(value >> index) }
        }

        mutating func writeCode(_ code: UInt32, length: Int) {
            for index in stride(from: length - 1, through: 0, by: -1) { writeBit(code >> index) }
        }

        mutating func flush() {
            bytes.append(current)
            current = 0
            used = 0
        }

        var finished: [UInt8] {
            var copy = self
            if copy.used > 0 { copy.flush() }
            return copy.bytes
        }
    }
}
