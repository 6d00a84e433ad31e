/// The UTF-8 bytes being printed, with the indentation that every line break carries.
///
/// The pretty printer reproduces graphql-js's `indent`, which replaces every `\n` of a nested block
/// with `\n` plus two spaces: here ``lineBreak()`` writes `\n` followed by ``indentation`` spaces, so
/// a line break written anywhere (inside a block string too) gets the indentation of every block it
/// is nested in. The compact writer never breaks lines.
struct TextBuffer {
    /// The printed bytes.
    var bytes: [UInt8] = []
    /// The spaces written after each line break.
    var indentation = 0
    /// How many line breaks were written; lets callers tell whether a piece spans several lines.
    var lineBreaks = 0

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// The number of bytes written so far; a mark to measure or undo from.
    @inline(__always)
    var count: Int { bytes.count }

    /// The last byte written, or 0 when nothing was.
    @inline(__always)
    var lastByte: UInt8 { bytes.last ?? 0 }

    @inline(__always)
    mutating func byte(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends ASCII or UTF-8 text given as a literal.
    @inline(__always)
    mutating func ascii(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends a string's UTF-8 bytes.
    @inline(__always)
    mutating func text(_ text: String) {
        let done: Void? = text.utf8.withContiguousStorageIfAvailable { bytes.append(contentsOf: $0) }
        if done == nil { bytes.append(contentsOf: text.utf8) }
    }

    /// Writes a line break followed by the current indentation.
    mutating func lineBreak() {
        bytes.append(0x0A)
        lineBreaks += 1
        var remaining = indentation
        while remaining > 0 {
            bytes.append(0x20)
            remaining -= 1
        }
    }

    /// Drops everything written after `mark` (a value of ``count``), with the line breaks in it.
    mutating func truncate(to mark: Int, lineBreaks marks: Int) {
        bytes.removeSubrange(mark...)
        lineBreaks = marks
    }

    /// The length in UTF-16 code units (as JavaScript counts string length) of the text written
    /// after `mark`, leaving out the indentation written after each of its line breaks.
    func utf16Length(from mark: Int, lineBreaksSince breaks: Int) -> Int {
        var length = 0
        var index = mark
        let end = bytes.count
        while index < end {
            let byte = bytes[index]
            if byte & 0xC0 != 0x80 { length += byte >= 0xF0 ? 2 : 1 }
            index += 1
        }
        return length - breaks * indentation
    }
}

extension UInt8 {
    /// Whether the byte can continue a GraphQL name (`[_0-9A-Za-z]`).
    @inline(__always)
    var isNameContinue: Bool {
        (self >= 0x61 && self <= 0x7A) || (self >= 0x41 && self <= 0x5A) || (self >= 0x30 && self <= 0x39)
            || self == 0x5F
    }
}
