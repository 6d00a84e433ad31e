extension TextBuffer {
    /// Writes `value` as a quoted string literal, escaped as graphql-js's `printString` does.
    ///
    /// `"` and `\` get a backslash; `\b \t \n \f \r` their short escapes; every other character in
    /// U+0000–U+001F and U+007F–U+009F becomes `\u00XX` (upper-case hex). Everything else, non-ASCII
    /// included, is written as its UTF-8 bytes.
    mutating func quotedString(_ value: String) {
        byte(0x22)
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { escapeQuoted($0) }
        if done == nil {
            let copy = Array(value.utf8)
            copy.withUnsafeBufferPointer { escapeQuoted($0) }
        }
        byte(0x22)
    }

    /// Writes UTF-8 text as a quoted string literal, escaped as ``quotedString(_:)`` escapes.
    mutating func quotedString(utf8 value: UnsafeBufferPointer<UInt8>) {
        byte(0x22)
        escapeQuoted(value)
        byte(0x22)
    }

    private mutating func escapeQuoted(_ source: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var index = 0
        let count = source.count
        while index < count {
            let code = source[index]
            let escapedLength: Int
            if code < 0x20 || code == 0x22 || code == 0x5C || code == 0x7F {
                escapedLength = 1
            } else if code == 0xC2, index + 1 < count, source[index + 1] >= 0x80, source[index + 1] <= 0x9F {
                escapedLength = 2
            } else {
                index += 1
                continue
            }
            if runStart < index {
                append(UnsafeBufferPointer(rebasing: source[runStart..<index]))
            }
            let scalar = escapedLength == 1 ? code : source[index + 1]
            switch scalar {
            case 0x22: ascii("\\\"")
            case 0x5C: ascii("\\\\")
            case 0x08: ascii("\\b")
            case 0x09: ascii("\\t")
            case 0x0A: ascii("\\n")
            case 0x0C: ascii("\\f")
            case 0x0D: ascii("\\r")
            default:
                ascii("\\u00")
                byte(Self.hexDigit(scalar >> 4))
                byte(Self.hexDigit(scalar & 0x0F))
            }
            index += escapedLength
            runStart = index
        }
        if runStart < count {
            append(UnsafeBufferPointer(rebasing: source[runStart..<count]))
        }
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 + nibble : 0x41 + nibble - 10
    }

    /// Writes `value` as a block string, laid out as graphql-js 16's `printBlockString` does.
    ///
    /// `"""` inside the value is written `\"""`. The text goes on its own lines between the quotes
    /// when that reads better: when it spans several lines, is longer than 70 UTF-16 code units, ends
    /// with `"` or `\`, or when every line after the first is empty or indented (a leading line break
    /// keeps that indentation from being taken as common indentation). A single line starting with a
    /// space or tab keeps the opening quotes on its line. Line breaks inside the value are written
    /// with ``lineBreak()``, so they carry the indentation of the enclosing blocks, as in graphql-js.
    mutating func blockString(_ value: String) {
        let done: Void? = value.utf8.withContiguousStorageIfAvailable { writeBlock($0) }
        if done == nil {
            let copy = Array(value.utf8)
            copy.withUnsafeBufferPointer { writeBlock($0) }
        }
    }

    private mutating func writeBlock(_ value: UnsafeBufferPointer<UInt8>) {
        let count = value.count
        // One pass over the escaped text: the line structure and where `"""` occurs.
        var lineCount = 1
        var laterLinesIndented = true
        var lineStart = true
        var utf16Length = 0
        var index = 0
        var endsWithEscapedQuotes = false
        while index < count {
            let code = value[index]
            if code & 0xC0 != 0x80 { utf16Length += code >= 0xF0 ? 2 : 1 }
            if code == 0x0A || code == 0x0D {
                if code == 0x0D, index + 1 < count, value[index + 1] == 0x0A { index += 1 }
                lineCount += 1
                lineStart = true
                index += 1
                continue
            }
            if lineStart, lineCount > 1, code != 0x20, code != 0x09 { laterLinesIndented = false }
            lineStart = false
            index += 1
        }
        if count >= 3, value[count - 1] == 0x22, value[count - 2] == 0x22, value[count - 3] == 0x22 {
            // The escaped text ends with `\"""` exactly when the last `"""` found scanning from the
            // left ends at the end of the value.
            endsWithEscapedQuotes = Self.lastTripleQuoteEndsAtEnd(value)
        }
        let isSingleLine = lineCount == 1
        let forceLeadingNewLine = lineCount > 1 && laterLinesIndented
        let hasTrailingQuote = count > 0 && value[count - 1] == 0x22 && !endsWithEscapedQuotes
        let hasTrailingSlash = count > 0 && value[count - 1] == 0x5C
        let forceTrailingNewLine = hasTrailingQuote || hasTrailingSlash
        let printAsMultipleLines = !isSingleLine || utf16Length > 70 || forceTrailingNewLine
            || forceLeadingNewLine || endsWithEscapedQuotes
        let skipLeadingNewLine = isSingleLine && count > 0 && (value[0] == 0x20 || value[0] == 0x09)

        ascii("\"\"\"")
        if (printAsMultipleLines && !skipLeadingNewLine) || forceLeadingNewLine { lineBreak() }
        var quotes = 0
        index = 0
        while index < count {
            let code = value[index]
            if code == 0x22 {
                quotes += 1
                if quotes == 3 {
                    ascii("\\\"\"\"")
                    quotes = 0
                }
            } else {
                flushQuotes(&quotes)
                if code == 0x0A {
                    lineBreak()
                } else {
                    byte(code)
                }
            }
            index += 1
        }
        flushQuotes(&quotes)
        if printAsMultipleLines || forceTrailingNewLine { lineBreak() }
        ascii("\"\"\"")
    }

    @inline(__always)
    private mutating func flushQuotes(_ quotes: inout Int) {
        while quotes > 0 {
            byte(0x22)
            quotes -= 1
        }
    }

    /// Whether replacing each `"""` from the left leaves the value ending in a replaced `"""`.
    private static func lastTripleQuoteEndsAtEnd(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        var quotes = 0
        var endedAt = -1
        for index in value.indices {
            if value[index] == 0x22 {
                quotes += 1
                if quotes == 3 {
                    endedAt = index
                    quotes = 0
                }
            } else {
                quotes = 0
            }
        }
        return endedAt == value.count - 1
    }
}
