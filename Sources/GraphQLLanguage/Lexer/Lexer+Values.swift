extension Lexer {
    /// The source text of a token (names, numbers), sliced from the bytes.
    @inline(__always)
    func text(of token: Token) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), as: UTF8.self)
    }

    /// The value of a `.string` token: the text between the quotes with escapes decoded.
    ///
    /// The token was checked when it was read, so every escape here is valid.
    func stringValue(of token: Token) -> String {
        let start = token.start + 1
        let end = token.end - 1
        guard token.hasEscape else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
        // Every escape is at least as long as the UTF-8 it stands for, so the text's length bounds the value's.
        return String(unsafeUninitializedCapacity: end - start) { output in
            var written = 0
            var offset = start
            while offset < end {
                let code = bytes[offset]
                if code != 0x5C {
                    output[written] = code
                    written += 1
                    offset += 1
                    continue
                }
                guard case .scalar(let value, let size) = escape(at: offset) else {
                    offset += 1
                    continue
                }
                written = Lexer.encodeUTF8(value, into: output, at: written)
                offset += size
            }
            return written
        }
    }

    /// Writes `value` as UTF-8 at `index`; returns the index after it.
    private static func encodeUTF8(_ value: UInt32, into output: UnsafeMutableBufferPointer<UInt8>, at index: Int) -> Int {
        switch value {
        case 0..<0x80:
            output[index] = UInt8(value)
            return index + 1
        case 0x80..<0x800:
            output[index] = UInt8(0xC0 | value >> 6)
            output[index + 1] = UInt8(0x80 | value & 0x3F)
            return index + 2
        case 0x800..<0x10000:
            output[index] = UInt8(0xE0 | value >> 12)
            output[index + 1] = UInt8(0x80 | (value >> 6) & 0x3F)
            output[index + 2] = UInt8(0x80 | value & 0x3F)
            return index + 3
        default:
            output[index] = UInt8(0xF0 | value >> 18)
            output[index + 1] = UInt8(0x80 | (value >> 12) & 0x3F)
            output[index + 2] = UInt8(0x80 | (value >> 6) & 0x3F)
            output[index + 3] = UInt8(0x80 | value & 0x3F)
            return index + 4
        }
    }

    /// The value of a `.blockString` token: the spec's `BlockStringValue()`.
    ///
    /// Lines end at CRLF, CR or LF; `\"""` stands for `"""`; the smallest indentation (spaces and
    /// tabs) of the lines after the first that are not blank is removed from every line after the
    /// first; blank lines at the start and end are dropped; lines are joined with LF.
    func blockStringValue(of token: Token) -> String {
        let contentStart = token.start + 3
        let contentEnd = token.end - 3
        // First pass: the common indentation and the first and last lines that are not blank.
        var commonIndent = Int.max
        var firstNonBlank = -1
        var lastNonBlank = -1
        var lineIndex = 0
        var lineStart = contentStart
        while true {
            let lineEnd = endOfLine(from: lineStart, limit: contentEnd)
            var indent = 0
            while lineStart + indent < lineEnd, bytes[lineStart + indent] == 0x20 || bytes[lineStart + indent] == 0x09 {
                indent += 1
            }
            if lineStart + indent < lineEnd {
                if firstNonBlank < 0 { firstNonBlank = lineIndex }
                lastNonBlank = lineIndex
                if lineIndex != 0, indent < commonIndent { commonIndent = indent }
            }
            guard lineEnd < contentEnd else { break }
            lineStart = startOfNextLine(after: lineEnd)
            lineIndex += 1
        }
        guard firstNonBlank >= 0 else { return "" }
        if commonIndent == Int.max { commonIndent = 0 }
        // Second pass: copy the kept lines, without the indentation and with `\"""` unescaped.
        return String(unsafeUninitializedCapacity: contentEnd - contentStart) { output in
            var written = 0
            lineIndex = 0
            lineStart = contentStart
            while lineIndex <= lastNonBlank {
                let lineEnd = endOfLine(from: lineStart, limit: contentEnd)
                if lineIndex >= firstNonBlank {
                    if lineIndex > firstNonBlank {
                        output[written] = 0x0A
                        written += 1
                    }
                    var offset = lineIndex == 0 ? lineStart : min(lineStart + commonIndent, lineEnd)
                    while offset < lineEnd {
                        let code = bytes[offset]
                        if code == 0x5C, offset + 3 < lineEnd, bytes[offset + 1] == 0x22, bytes[offset + 2] == 0x22,
                            bytes[offset + 3] == 0x22
                        {
                            output[written] = 0x22
                            output[written + 1] = 0x22
                            output[written + 2] = 0x22
                            written += 3
                            offset += 4
                            continue
                        }
                        output[written] = code
                        written += 1
                        offset += 1
                    }
                }
                guard lineEnd < contentEnd else { break }
                lineStart = startOfNextLine(after: lineEnd)
                lineIndex += 1
            }
            return written
        }
    }

    /// The offset of the first CR or LF at or after `start`, or `limit`.
    @inline(__always)
    private func endOfLine(from start: Int, limit: Int) -> Int {
        var offset = start
        while offset < limit {
            let code = bytes[offset]
            if code == 0x0A || code == 0x0D { return offset }
            offset += 1
        }
        return limit
    }

    /// The offset after the line terminator at `offset` (CRLF counts as one).
    @inline(__always)
    private func startOfNextLine(after offset: Int) -> Int {
        bytes[offset] == 0x0D && byte(at: offset + 1) == 0x0A ? offset + 2 : offset + 1
    }
}
