extension Lexer {
    /// Reads an `IntValue` or `FloatValue` starting with `-` or a digit, with graphql-js's errors:
    /// a digit after a leading zero, a missing digit after `-`, `.`, `e` or its sign, and a number
    /// directly followed by `.` or a name start.
    func readNumber(from start: Int) throws(ParseFailure) -> Token {
        var offset = start
        var code = byte(at: offset)
        var isFloat = false
        if code == 0x2D {  // -
            offset += 1
            code = byte(at: offset)
        }
        if code == 0x30 {  // 0
            offset += 1
            code = byte(at: offset)
            if Lexer.isDigit(code) {
                throw ParseFailure(
                    "Invalid number, unexpected digit after 0: \(describeCharacter(at: offset)).", at: offset
                )
            }
        } else {
            offset = try readDigits(from: offset)
            code = byte(at: offset)
        }
        if code == 0x2E {  // .
            isFloat = true
            offset = try readDigits(from: offset + 1)
            code = byte(at: offset)
        }
        if code == 0x45 || code == 0x65 {  // E e
            isFloat = true
            offset += 1
            code = byte(at: offset)
            if code == 0x2B || code == 0x2D {  // + -
                offset += 1
            }
            offset = try readDigits(from: offset)
            code = byte(at: offset)
        }
        if code == 0x2E || (code >= 0 && Lexer.isNameStart(UInt8(code))) {
            throw ParseFailure(
                "Invalid number, expected digit but got: \(describeCharacter(at: offset)).", at: offset
            )
        }
        return Token(kind: isFloat ? .float : .int, start: start, end: offset)
    }

    /// Reads one or more digits from `start`; returns the offset after the last.
    private func readDigits(from start: Int) throws(ParseFailure) -> Int {
        guard Lexer.isDigit(byte(at: start)) else {
            throw ParseFailure("Invalid number, expected digit but got: \(describeCharacter(at: start)).", at: start)
        }
        var offset = start + 1
        while offset < bytes.count, bytes[offset] >= 0x30, bytes[offset] <= 0x39 { offset += 1 }
        return offset
    }

    @inline(__always)
    static func isDigit(_ code: Int) -> Bool { code >= 0x30 && code <= 0x39 }
}
