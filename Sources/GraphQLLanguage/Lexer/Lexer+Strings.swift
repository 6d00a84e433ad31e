extension Lexer {
    /// Reads a quoted string from its opening `"`, checking every escape and UTF-8 sequence.
    func readString(from start: Int) throws(ParseFailure) -> Token {
        let count = bytes.count
        var offset = start + 1
        var hasEscape = false
        while offset < count {
            offset = skipStringText(from: offset)
            guard offset < count else { break }
            let code = bytes[offset]
            if code == 0x22 {
                return Token(kind: .string, start: start, end: offset + 1, hasEscape: hasEscape)
            }
            if code == 0x5C {
                hasEscape = true
                switch escape(at: offset) {
                case .scalar(_, let size): offset += size
                case .invalidUnicode(let size):
                    throw ParseFailure(
                        "Invalid Unicode escape sequence: \"\(text(at: offset, codePoints: size))\".", at: offset)
                case .invalidCharacter:
                    throw ParseFailure(
                        "Invalid character escape sequence: \"\(text(at: offset, codePoints: 2))\".", at: offset
                    )
                }
                continue
            }
            if code == 0x0A || code == 0x0D { break }
            if code < 0x80 {
                offset += 1
            } else {
                offset += try scalar(at: offset).length
            }
        }
        throw ParseFailure("Unterminated string.", at: offset)
    }

    /// Reads a block string from its opening `"""`, checking every UTF-8 sequence.
    ///
    /// While reading, it also works out the line structure that `BlockStringValue()` needs: when
    /// the value is one stretch of the source (no `\"""`, at most one line that is not blank, as in
    /// nearly every description), that stretch is kept in ``lastBlockString`` so
    /// ``blockStringValue(of:)`` can slice it without reading the text again.
    mutating func readBlockString(from start: Int) throws(ParseFailure) -> Token {
        let count = bytes.count
        var hasEscape = false
        var isFirstLine = true
        var lineStart = start + 3
        // The first character of the line that is not a space or tab.
        var textStart = endOfIndentation(from: lineStart)
        var nonBlankLines = 0
        var keptStart = lineStart
        var keptEnd = lineStart
        var offset = textStart
        while offset < count {
            offset = skipStringText(from: offset)
            guard offset < count else { break }
            let code = bytes[offset]
            if code == 0x22 || code == 0x0A || code == 0x0D {
                let isEnd = code == 0x22 && byte(at: offset + 1) == 0x22 && byte(at: offset + 2) == 0x22
                guard isEnd || code != 0x22 else {
                    offset += 1
                    continue
                }
                // The line ends here; count it if it is not blank.
                if textStart < offset {
                    nonBlankLines += 1
                    keptStart = isFirstLine ? lineStart : textStart
                    keptEnd = offset
                }
                if isEnd {
                    if !hasEscape, nonBlankLines <= 1 {
                        lastBlockString = (start, keptStart, keptEnd)
                    }
                    return Token(kind: .blockString, start: start, end: offset + 3, hasEscape: hasEscape)
                }
                offset += code == 0x0D && byte(at: offset + 1) == 0x0A ? 2 : 1
                isFirstLine = false
                lineStart = offset
                textStart = endOfIndentation(from: offset)
                offset = textStart
            } else if code == 0x5C {
                if byte(at: offset + 1) == 0x22, byte(at: offset + 2) == 0x22, byte(at: offset + 3) == 0x22 {
                    hasEscape = true
                    offset += 4
                } else {
                    offset += 1
                }
            } else if code < 0x80 {
                offset += 1
            } else {
                offset += try scalar(at: offset).length
            }
        }
        throw ParseFailure("Unterminated string.", at: count)
    }

    /// The offset of the first byte at or after `offset` that is not a space or tab, or the end.
    @inline(__always)
    func endOfIndentation(from offset: Int) -> Int {
        var index = offset
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        return index
    }

    /// The outcome of reading one escape sequence that starts with `\`.
    enum Escape {
        /// A valid escape: the scalar it stands for and its length (all ASCII, so bytes = characters).
        case scalar(UInt32, size: Int)
        /// A bad `\u` escape; `size` is how many characters graphql-js quotes in its message.
        case invalidUnicode(size: Int)
        /// A backslash followed by a character that is not an escape.
        case invalidCharacter
    }

    /// Reads the escape sequence at `offset` (which holds a backslash), following graphql-js 16:
    /// `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\uXXXX` (a surrogate pair only as two
    /// escapes that form a pair), and `\u{X...}` naming a Unicode scalar value.
    func escape(at offset: Int) -> Escape {
        switch byte(at: offset + 1) {
        case 0x22: return .scalar(0x22, size: 2)
        case 0x5C: return .scalar(0x5C, size: 2)
        case 0x2F: return .scalar(0x2F, size: 2)
        case 0x62: return .scalar(0x08, size: 2)
        case 0x66: return .scalar(0x0C, size: 2)
        case 0x6E: return .scalar(0x0A, size: 2)
        case 0x72: return .scalar(0x0D, size: 2)
        case 0x74: return .scalar(0x09, size: 2)
        case 0x75:
            return byte(at: offset + 2) == 0x7B ? variableWidthEscape(at: offset) : fixedWidthEscape(at: offset)
        default: return .invalidCharacter
        }
    }

    private func variableWidthEscape(at offset: Int) -> Escape {
        // Mirrors graphql-js: a 32-bit accumulator (so eight hex digits can turn it negative) and
        // at most 12 characters (`\u{00000000}`).
        var point: Int32 = 0
        var size = 3
        while size < 12 {
            let code = byte(at: offset + size)
            size += 1
            if code == 0x7D {
                guard size >= 5, Lexer.isScalarValue(point) else { break }
                return .scalar(UInt32(point), size: size)
            }
            point = (point &<< 4) | Lexer.hexValue(code)
            if point < 0 { break }
        }
        return .invalidUnicode(size: size)
    }

    private func fixedWidthEscape(at offset: Int) -> Escape {
        let code = hex16(at: offset + 2)
        if Lexer.isScalarValue(code) { return .scalar(UInt32(code), size: 6) }
        if code >= 0xD800, code <= 0xDBFF, byte(at: offset + 6) == 0x5C, byte(at: offset + 7) == 0x75 {
            let trailing = hex16(at: offset + 8)
            if trailing >= 0xDC00, trailing <= 0xDFFF {
                let value = 0x10000 + ((UInt32(code) - 0xD800) << 10) + (UInt32(trailing) - 0xDC00)
                return .scalar(value, size: 12)
            }
        }
        return .invalidUnicode(size: 6)
    }

    /// Four hex digits as a value, or a negative number if any is not a hex digit.
    private func hex16(at offset: Int) -> Int32 {
        Lexer.hexValue(byte(at: offset)) << 12 | Lexer.hexValue(byte(at: offset + 1)) << 8
            | Lexer.hexValue(byte(at: offset + 2)) << 4 | Lexer.hexValue(byte(at: offset + 3))
    }

    private static func hexValue(_ code: Int) -> Int32 {
        switch code {
        case 0x30...0x39: Int32(code - 0x30)
        case 0x41...0x46: Int32(code - 0x37)
        case 0x61...0x66: Int32(code - 0x57)
        default: -1
        }
    }

    private static func isScalarValue(_ value: Int32) -> Bool {
        (value >= 0 && value <= 0xD7FF) || (value >= 0xE000 && value <= 0x10FFFF)
    }

    /// Up to `codePoints` characters of text starting at `offset`, for quoting in messages.
    func text(at offset: Int, codePoints: Int) -> String {
        var end = offset
        var taken = 0
        while taken < codePoints, end < bytes.count {
            if bytes[end] < 0x80 {
                end += 1
            } else {
                end += decodeScalar(at: end)?.length ?? 1
            }
            taken += 1
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
    }
}
