/// Word-at-a-time scanning of the long stretches of plain ASCII inside strings, block strings and
/// comments. Each function returns the first offset at or after `offset` whose byte is special for
/// that context (or not ASCII), or the end of the text; the byte-by-byte code then handles it.
extension Lexer {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Nonzero exactly when some byte of `word` is zero.
    @inline(__always)
    private static func zeroByteMask(_ word: UInt64) -> UInt64 {
        (word &- ones) & ~word & highBits
    }

    /// Nonzero exactly when some byte of `word` equals `byte`.
    @inline(__always)
    private static func byteMask(_ word: UInt64, _ byte: UInt64) -> UInt64 {
        zeroByteMask(word ^ (ones &* byte))
    }

    /// Skips ASCII other than `"`, `\`, LF and CR (the inside of a quoted string).
    @inline(__always)
    func skipStringText(from offset: Int) -> Int {
        var index = offset
        let count = bytes.count
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let special =
                    (word & Lexer.highBits) | Lexer.byteMask(word, 0x22) | Lexer.byteMask(word, 0x5C)
                    | Lexer.byteMask(word, 0x0A) | Lexer.byteMask(word, 0x0D)
                if special != 0 { break }
                index += 8
            }
        }
        while index < count {
            let code = bytes[index]
            if code == 0x22 || code == 0x5C || code == 0x0A || code == 0x0D || code >= 0x80 { break }
            index += 1
        }
        return index
    }

    /// Skips ASCII other than `"` and `\` (the inside of a block string).
    @inline(__always)
    func skipBlockStringText(from offset: Int) -> Int {
        var index = offset
        let count = bytes.count
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let special = (word & Lexer.highBits) | Lexer.byteMask(word, 0x22) | Lexer.byteMask(word, 0x5C)
                if special != 0 { break }
                index += 8
            }
        }
        while index < count {
            let code = bytes[index]
            if code == 0x22 || code == 0x5C || code >= 0x80 { break }
            index += 1
        }
        return index
    }

    /// Skips ASCII other than LF and CR (the inside of a comment, or a line of a block string when
    /// `limit` is its closing quotes). Stops at `limit`.
    @inline(__always)
    func skipLineText(from offset: Int, limit: Int, stopAtNonASCII: Bool) -> Int {
        var index = offset
        let high = stopAtNonASCII ? Lexer.highBits : 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= limit {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let special = (word & high) | Lexer.byteMask(word, 0x0A) | Lexer.byteMask(word, 0x0D)
                if special != 0 { break }
                index += 8
            }
        }
        while index < limit {
            let code = bytes[index]
            if code == 0x0A || code == 0x0D || (stopAtNonASCII && code >= 0x80) { break }
            index += 1
        }
        return index
    }
}
