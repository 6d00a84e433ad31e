/// Splits GraphQL source bytes into significant tokens, skipping white space, line terminators,
/// commas, comments and byte order marks.
///
/// Invariants: `position` is always at a token boundary; every byte before it has been checked (valid
/// UTF-8, valid escapes), so later decoding of a token's value cannot fail. The buffer must outlive
/// the lexer; the parser creates both inside one `withUnsafeBufferPointer` call.
struct Lexer {
    /// The source text.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next unread byte.
    var position: Int = 0
    /// How many ignored tokens were skipped so far.
    var ignoredTokens: Int = 0
    /// The most ignored tokens allowed.
    let maxIgnoredTokens: Int
    /// The last block string read whose value is one stretch of the source: the token's start and
    /// the stretch. Only ever describes a token of this source, so a stale entry is harmless.
    var lastBlockString: (start: Int, valueStart: Int, valueEnd: Int) = (-1, 0, 0)

    init(bytes: UnsafeBufferPointer<UInt8>, maxIgnoredTokens: Int) {
        self.bytes = bytes
        self.maxIgnoredTokens = maxIgnoredTokens
    }

    /// The byte at `offset`, or -1 past the end.
    @inline(__always)
    func byte(at offset: Int) -> Int {
        offset < bytes.count ? Int(bytes[offset]) : -1
    }

    /// Reads the next significant token.
    /// - Throws: ``ParseFailure`` for an invalid character, literal or UTF-8 sequence, or when
    ///   ``maxIgnoredTokens`` is exceeded.
    mutating func next() throws(ParseFailure) -> Token {
        let count = bytes.count
        var offset = position
        while offset < count {
            let code = bytes[offset]
            switch code {
            case 0x20, 0x09, 0x0A, 0x0D:
                try countIgnored(at: offset)
                offset += 1
                while offset < count {
                    let next = bytes[offset]
                    if next == 0x20 {
                        offset = endOfSpaces(from: offset)
                        continue
                    }
                    // Bits 0x09, 0x0A and 0x0D: tab, LF, CR.
                    guard next <= 0x0D, (UInt64(0x2600) >> next) & 1 != 0 else { break }
                    offset += 1
                }
            case 0x2C:  // ,
                try countIgnored(at: offset)
                offset += 1
            case 0x23:  // #
                try countIgnored(at: offset)
                offset = try skipComment(from: offset)
            case 0x21: return punctuator(.bang, at: offset)
            case 0x24: return punctuator(.dollar, at: offset)
            case 0x26: return punctuator(.ampersand, at: offset)
            case 0x28: return punctuator(.parenLeft, at: offset)
            case 0x29: return punctuator(.parenRight, at: offset)
            case 0x3A: return punctuator(.colon, at: offset)
            case 0x3D: return punctuator(.equals, at: offset)
            case 0x40: return punctuator(.at, at: offset)
            case 0x5B: return punctuator(.bracketLeft, at: offset)
            case 0x5D: return punctuator(.bracketRight, at: offset)
            case 0x7B: return punctuator(.braceLeft, at: offset)
            case 0x7C: return punctuator(.pipe, at: offset)
            case 0x7D: return punctuator(.braceRight, at: offset)
            case 0x2E:  // .
                if byte(at: offset + 1) == 0x2E, byte(at: offset + 2) == 0x2E {
                    position = offset + 3
                    return Token(kind: .spread, start: offset, end: offset + 3)
                }
                throw unexpectedCharacter(at: offset)
            case 0x22:  // "
                let token: Token
                if byte(at: offset + 1) == 0x22, byte(at: offset + 2) == 0x22 {
                    token = try readBlockString(from: offset)
                } else {
                    token = try readString(from: offset)
                }
                position = token.end
                return token
            case 0x2D, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39:  // - and digits
                let token = try readNumber(from: offset)
                position = token.end
                return token
            default:
                if Lexer.isNameStart(code) {
                    let end = endOfName(from: offset + 1)
                    position = end
                    return Token(kind: .name, start: offset, end: end)
                }
                guard code == 0xEF, byte(at: offset + 1) == 0xBB, byte(at: offset + 2) == 0xBF else {
                    throw unexpectedCharacter(at: offset)
                }
                try countIgnored(at: offset)
                offset += 3  // U+FEFF, the byte order mark, is ignored anywhere.
            }
        }
        position = count
        return Token(kind: .endOfFile, start: count, end: count)
    }

    @inline(__always)
    private mutating func punctuator(_ kind: TokenKind, at offset: Int) -> Token {
        position = offset + 1
        return Token(kind: kind, start: offset, end: offset + 1)
    }

    /// Counts the ignored token that starts at `offset`.
    @inline(__always)
    private mutating func countIgnored(at offset: Int) throws(ParseFailure) {
        ignoredTokens += 1
        if ignoredTokens > maxIgnoredTokens { throw ignoredTokensFailure(at: offset) }
    }

    @inline(never)
    private func ignoredTokensFailure(at offset: Int) -> ParseFailure {
        ParseFailure(
            "Document contains more than \(maxIgnoredTokens) ignored tokens (white space, commas and comments). "
                + "Parsing aborted; raise Limits.maxIgnoredTokens to accept it.",
            at: offset, limit: .ignoredTokens
        )
    }

    /// Skips a comment from its `#` to, not including, the line terminator; returns the end offset.
    private func skipComment(from start: Int) throws(ParseFailure) -> Int {
        var offset = start + 1
        let count = bytes.count
        while offset < count {
            offset = skipLineText(from: offset, limit: count, stopAtNonASCII: true)
            guard offset < count, bytes[offset] >= 0x80 else { break }
            offset += try scalar(at: offset).length
        }
        return offset
    }

    /// The error for a character that cannot start a token, in graphql-js's words.
    func unexpectedCharacter(at offset: Int) -> ParseFailure {
        if byte(at: offset) == 0x27 {
            return ParseFailure(
                "Unexpected single quote character ('), did you mean to use a double quote (\")?", at: offset
            )
        }
        if byte(at: offset) >= 0x80, decodeScalar(at: offset) == nil { return invalidUTF8(at: offset) }
        return ParseFailure("Unexpected character: \(describeCharacter(at: offset)).", at: offset)
    }

    @inline(__always)
    static func isNameStart(_ code: UInt8) -> Bool {
        let lower = code | 0x20
        return (lower >= 0x61 && lower <= 0x7A) || code == 0x5F
    }

    @inline(__always)
    static func isNameContinue(_ code: UInt8) -> Bool {
        let lower = code | 0x20
        return (lower >= 0x61 && lower <= 0x7A) || (code >= 0x30 && code <= 0x39) || code == 0x5F
    }
}
