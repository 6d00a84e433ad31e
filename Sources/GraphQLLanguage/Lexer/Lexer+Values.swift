extension Lexer {
    /// The source text of a token (names, numbers), sliced from the bytes.
    @inline(__always)
    func text(of token: Token) -> String {
        if token.kind == .name || token.kind == .int || token.kind == .float, token.end - token.start <= 15 {
            return Lexer.smallASCIIString(bytes, from: token.start, count: token.end - token.start)
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[token.start..<token.end]), as: UTF8.self)
    }

    /// A string of at most 15 ASCII bytes, built directly in Swift's small-string form.
    ///
    /// Names and numbers are ASCII by the grammar, and most are short; `String(decoding:as:)`
    /// spends several times longer checking and copying them than the parser spends on the
    /// rest of the token. On 64-bit little-endian platforms the small-string form is part of the
    /// standard library's stable ABI: the bytes in order, zero-padded, with the top byte
    /// `0xE0 | count` (immortal, ASCII, small). Elsewhere this falls back to `String(decoding:)`.
    @inline(__always)
    static func smallASCIIString(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, count: Int) -> String {
        #if (arch(x86_64) || arch(arm64)) && _endian(little)
            var low: UInt64 = 0
            var high: UInt64 = 0
            if start + 16 <= bytes.count, let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base + start)
                let first = raw.loadUnaligned(as: UInt64.self)
                let second = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                low = count >= 8 ? first : first & ((1 << (8 * UInt64(count))) - 1)
                high = count <= 8 ? 0 : second & ((1 << (8 * UInt64(count - 8))) - 1)
            } else {
                for index in 0..<min(count, 8) { low |= UInt64(bytes[start + index]) << (8 * UInt64(index)) }
                if count > 8 {
                    for index in 8..<count { high |= UInt64(bytes[start + index]) << (8 * UInt64(index - 8)) }
                }
            }
            high |= (0xE0 | UInt64(count)) << 56
            return unsafeBitCast((low, high), to: String.self)
        #else
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(start + count)]), as: UTF8.self)
        #endif
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
    private static func encodeUTF8(_ value: UInt32, into output: UnsafeMutableBufferPointer<UInt8>, at index: Int)
        -> Int
    {
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
        if lastBlockString.start == token.start {
            // Worked out while the token was read: one stretch of the source.
            let (_, from, to) = lastBlockString
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
        }
        let contentStart = token.start + 3
        let contentEnd = token.end - 3
        let firstLineEnd = endOfLine(from: contentStart, limit: contentEnd)
        if firstLineEnd == contentEnd {
            // One line: nothing to dedent; blank means empty.
            guard indentation(from: contentStart, to: contentEnd) < contentEnd - contentStart else { return "" }
            return String(unsafeUninitializedCapacity: contentEnd - contentStart) { output in
                copyLine(from: contentStart, to: contentEnd, unescaping: token.hasEscape, into: output, at: 0)
            }
        }
        // First pass: the common indentation and the first and last lines that are not blank.
        var commonIndent = Int.max
        var firstNonBlank = -1
        var lastNonBlank = -1
        var keptStart = 0  // where the first kept line starts and ends, for the one-line shortcut
        var keptEnd = 0
        var lineIndex = 0
        var lineStart = contentStart
        var lineEnd = firstLineEnd
        while true {
            let indent = indentation(from: lineStart, to: lineEnd)
            if lineStart + indent < lineEnd {
                if firstNonBlank < 0 {
                    firstNonBlank = lineIndex
                    keptStart = lineStart
                    keptEnd = lineEnd
                }
                lastNonBlank = lineIndex
                if lineIndex != 0, indent < commonIndent { commonIndent = indent }
            }
            guard lineEnd < contentEnd else { break }
            lineStart = startOfNextLine(after: lineEnd)
            lineEnd = endOfLine(from: lineStart, limit: contentEnd)
            lineIndex += 1
        }
        guard firstNonBlank >= 0 else { return "" }
        if commonIndent == Int.max { commonIndent = 0 }
        if firstNonBlank == lastNonBlank {
            // One kept line, the usual description: its text without the common indentation.
            let from = firstNonBlank == 0 ? keptStart : keptStart + commonIndent
            guard token.hasEscape else {
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<keptEnd]), as: UTF8.self)
            }
            return String(unsafeUninitializedCapacity: keptEnd - from) { output in
                copyLine(from: from, to: keptEnd, unescaping: true, into: output, at: 0)
            }
        }
        // Second pass: copy the kept lines, without the indentation and with `\"""` unescaped.
        return String(unsafeUninitializedCapacity: contentEnd - contentStart) { output in
            var written = 0
            var lineIndex = 0
            var lineStart = contentStart
            var lineEnd = firstLineEnd
            while true {
                if lineIndex >= firstNonBlank {
                    if lineIndex > firstNonBlank {
                        output[written] = 0x0A
                        written += 1
                    }
                    let from = lineIndex == 0 ? lineStart : min(lineStart + commonIndent, lineEnd)
                    written = copyLine(from: from, to: lineEnd, unescaping: token.hasEscape, into: output, at: written)
                }
                guard lineIndex < lastNonBlank, lineEnd < contentEnd else { break }
                lineStart = startOfNextLine(after: lineEnd)
                lineEnd = endOfLine(from: lineStart, limit: contentEnd)
                lineIndex += 1
            }
            return written
        }
    }

    /// The number of spaces and tabs at the start of `start..<end`.
    @inline(__always)
    private func indentation(from start: Int, to end: Int) -> Int {
        var offset = start
        while offset < end, bytes[offset] == 0x20 || bytes[offset] == 0x09 { offset += 1 }
        return offset - start
    }

    /// Copies `start..<end` into `output` at `index`, turning `\"""` into `"""` when `unescaping`;
    /// returns the index after the copy.
    @inline(__always)
    private func copyLine(
        from start: Int, to end: Int, unescaping: Bool, into output: UnsafeMutableBufferPointer<UInt8>, at index: Int
    ) -> Int {
        guard start < end, let source = bytes.baseAddress, let target = output.baseAddress else { return index }
        guard unescaping else {
            (target + index).update(from: source + start, count: end - start)
            return index + end - start
        }
        var written = index
        var offset = start
        while offset < end {
            let code = bytes[offset]
            if code == 0x5C, offset + 3 < end, bytes[offset + 1] == 0x22, bytes[offset + 2] == 0x22,
                bytes[offset + 3] == 0x22
            {
                offset += 1
                continue
            }
            output[written] = code
            written += 1
            offset += 1
        }
        return written
    }

    /// The offset of the first CR or LF at or after `start`, or `limit`.
    @inline(__always)
    private func endOfLine(from start: Int, limit: Int) -> Int {
        skipLineText(from: start, limit: limit, stopAtNonASCII: false)
    }

    /// The offset after the line terminator at `offset` (CRLF counts as one).
    @inline(__always)
    private func startOfNextLine(after offset: Int) -> Int {
        bytes[offset] == 0x0D && byte(at: offset + 1) == 0x0A ? offset + 2 : offset + 1
    }
}
