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

    /// The offset of the first byte at or after `offset` that cannot continue a name, or the end.
    @inline(__always)
    func endOfName(from offset: Int) -> Int {
        var index = offset
        let count = bytes.count
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let stops = Lexer.nonNameBytes(word)
                if stops != 0 { return index + stops.trailingZeroBitCount >> 3 }
                index += 8
            }
        }
        while index < count, Lexer.isNameContinue(bytes[index]) { index += 1 }
        return index
    }

    /// The high bit of every byte of `word` that cannot continue a name (`[_0-9A-Za-z]`).
    ///
    /// Exact for every byte: the sums below never carry out of a byte, because each works on a byte
    /// whose high bit is clear (bytes with the high bit set are never part of a name).
    @inline(__always)
    static func nonNameBytes(_ word: UInt64) -> UInt64 {
        let ascii = word & ~highBits
        let lower = ascii | (ones &* 0x20)
        // High bit set when lower >= 0x61 and not lower >= 0x7B: a letter.
        let letters = (lower &+ ones &* 0x1F) & ~(lower &+ ones &* 0x05)
        // High bit set when ascii >= 0x30 and not ascii >= 0x3A: a digit.
        let digits = (ascii &+ ones &* 0x50) & ~(ascii &+ ones &* 0x46)
        // High bit clear exactly when ascii == 0x5F, so the complement marks underscores.
        let underscores = ~((ascii ^ (ones &* 0x5F)) &+ ones &* 0x7F)
        return (~(letters | digits | underscores) | word) & highBits
    }

    /// The offset of the first byte at or after `offset` that is not a space, or the end: skips
    /// indentation eight bytes at a time.
    @inline(__always)
    func endOfSpaces(from offset: Int) -> Int {
        var index = offset
        let count = bytes.count
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let others = word ^ (Lexer.ones &* 0x20)
                if others != 0 { return index + others.trailingZeroBitCount >> 3 }
                index += 8
            }
        }
        while index < count, bytes[index] == 0x20 { index += 1 }
        return index
    }
}
