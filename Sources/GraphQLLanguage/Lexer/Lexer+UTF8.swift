extension Lexer {
    /// Decodes the UTF-8 sequence starting at `offset` (whose first byte is at least 0x80).
    ///
    /// Strict: rejects stray continuation bytes, overlong forms, encoded surrogates, values above
    /// U+10FFFF and truncated sequences.
    /// - Returns: The scalar value and the sequence's length in bytes, or `nil` when invalid.
    func decodeScalar(at offset: Int) -> (value: UInt32, length: Int)? {
        let lead = byte(at: offset)
        func continuation(_ index: Int) -> UInt32? {
            let code = byte(at: offset + index)
            return code & 0xC0 == 0x80 ? UInt32(code & 0x3F) : nil
        }
        switch lead {
        case 0xC2...0xDF:
            guard let b1 = continuation(1) else { return nil }
            return (UInt32(lead & 0x1F) << 6 | b1, 2)
        case 0xE0...0xEF:
            guard let b1 = continuation(1), let b2 = continuation(2) else { return nil }
            let value = UInt32(lead & 0x0F) << 12 | b1 << 6 | b2
            guard value >= 0x800, !(0xD800...0xDFFF).contains(value) else { return nil }
            return (value, 3)
        case 0xF0...0xF4:
            guard let b1 = continuation(1), let b2 = continuation(2), let b3 = continuation(3) else { return nil }
            let value = UInt32(lead & 0x07) << 18 | b1 << 12 | b2 << 6 | b3
            guard value >= 0x10000, value <= 0x10FFFF else { return nil }
            return (value, 4)
        default:
            return nil
        }
    }

    /// Decodes the UTF-8 sequence at `offset`, or throws the invalid UTF-8 error there.
    @inline(__always)
    func scalar(at offset: Int) throws(ParseFailure) -> (value: UInt32, length: Int) {
        guard let decoded = decodeScalar(at: offset) else { throw invalidUTF8(at: offset) }
        return decoded
    }

    /// The error for bytes that are not UTF-8.
    func invalidUTF8(at offset: Int) -> ParseFailure {
        let code = byte(at: offset)
        let hex = String(code, radix: 16, uppercase: true)
        return ParseFailure(
            "Invalid UTF-8 byte 0x\(hex.count < 2 ? "0" + hex : hex); the document must be encoded as UTF-8.",
            at: offset
        )
    }

    /// The character at `offset` as graphql-js prints it: `<EOF>`, a printable ASCII character in
    /// double quotes (`'"'` for the quote itself), or `U+XXXX`.
    func describeCharacter(at offset: Int) -> String {
        let code = byte(at: offset)
        if code < 0 { return "<EOF>" }
        if code == 0x22 { return "'\"'" }
        if code >= 0x20, code <= 0x7E { return "\"\(Character(Unicode.Scalar(UInt8(code))))\"" }
        let value: UInt32
        if code < 0x80 {
            value = UInt32(code)
        } else if let decoded = decodeScalar(at: offset) {
            value = decoded.value
        } else {
            let hex = String(code, radix: 16, uppercase: true)
            return "invalid UTF-8 byte 0x\(hex.count < 2 ? "0" + hex : hex)"
        }
        return Lexer.codePointName(value)
    }

    /// `U+` and at least four upper-case hex digits.
    static func codePointName(_ value: UInt32) -> String {
        var hex = String(value, radix: 16, uppercase: true)
        while hex.count < 4 { hex = "0" + hex }
        return "U+" + hex
    }
}
