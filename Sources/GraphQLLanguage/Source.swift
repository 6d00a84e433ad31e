/// The text of one GraphQL document: a name (usually the file path) and its UTF-8 bytes.
///
/// A leading UTF-8 byte order mark is dropped when the source is created, so offsets, lines and
/// columns count from the first character after it. The bytes are not checked here; the lexer
/// reports invalid UTF-8 at its offset.
public struct Source: Sendable, Hashable {
    /// The name shown in diagnostics, usually the path of the file the text came from.
    public var name: String
    /// The UTF-8 text, without a leading byte order mark.
    public let bytes: [UInt8]

    /// Creates a source from raw bytes.
    /// - Parameters:
    ///   - bytes: The UTF-8 text; a leading byte order mark is dropped.
    ///   - name: The name shown in diagnostics, for example a file path.
    public init(bytes: [UInt8], name: String = "GraphQL request") {
        self.name = name
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            self.bytes = Array(bytes[3...])
        } else {
            self.bytes = bytes
        }
    }

    /// Hashes the name and length only, so hashing a diagnostic that carries a large schema stays
    /// cheap; equality still compares the bytes (quickly when both share one buffer).
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(bytes.count)
    }

    /// Whether two sources have the same name and bytes.
    /// - Parameters:
    ///   - lhs: A source.
    ///   - rhs: Another source.
    /// - Returns: `true` when name and bytes are equal.
    public static func == (lhs: Source, rhs: Source) -> Bool {
        lhs.name == rhs.name && lhs.bytes == rhs.bytes
    }

    /// Creates a source from a string.
    /// - Parameters:
    ///   - text: The text of the document.
    ///   - name: The name shown in diagnostics, for example a file path.
    public init(_ text: String, name: String = "GraphQL request") {
        self.init(bytes: Array(text.utf8), name: name)
    }

    /// The line and column of a byte offset.
    ///
    /// Lines end at LF, CR or CRLF; columns count code points (bytes that are not UTF-8
    /// continuation bytes). An offset past the end is clamped to the end. Costs one scan of the text
    /// up to `offset`.
    /// - Parameter offset: A byte offset into ``bytes``.
    /// - Returns: The location, carrying this source.
    public func location(at offset: Int) -> SourceLocation {
        let target = max(0, min(offset, bytes.count))
        let (line, column) = bytes.withUnsafeBufferPointer { buffer in
            Source.lineAndColumn(of: target, in: buffer)
        }
        return SourceLocation(offset: target, line: line, column: column, source: self)
    }

    /// Counts line terminators before `target`, then code points from the line's start; skips
    /// eight bytes at a time where there is nothing to count, since diagnostics in large schemas
    /// ask for positions megabytes in.
    private static func lineAndColumn(of target: Int, in buffer: UnsafeBufferPointer<UInt8>) -> (Int, Int) {
        guard let base = buffer.baseAddress else { return (1, 1) }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var line = 1
        var lineStart = 0
        var index = 0
        while index < target {
            if index + 8 <= target {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let lineFeeds = word ^ (ones &* 0x0A)
                let returns = word ^ (ones &* 0x0D)
                let hasTerminator = ((lineFeeds &- ones) & ~lineFeeds | (returns &- ones) & ~returns) & highBits
                if hasTerminator == 0 {
                    index += 8
                    continue
                }
            }
            let byte = buffer[index]
            if byte == 0x0A {
                line += 1
                lineStart = index + 1
            } else if byte == 0x0D {
                // A CR directly followed by LF ends the line at the LF.
                if index + 1 >= buffer.count || buffer[index + 1] != 0x0A {
                    line += 1
                    lineStart = index + 1
                }
            }
            index += 1
        }
        // Columns count code points: every byte that is not a UTF-8 continuation byte (10xxxxxx).
        var column = 1
        index = lineStart
        while index + 8 <= target {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let continuations = word & ~(word << 1) & highBits
            column += 8 - continuations.nonzeroBitCount
            index += 8
        }
        while index < target {
            if buffer[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return (line, column)
    }

    /// The byte range of the line that contains `offset`, without its line terminator.
    /// - Parameter offset: A byte offset into ``bytes``.
    /// - Returns: The range of the whole line.
    public func lineRange(containing offset: Int) -> SourceRange {
        let target = max(0, min(offset, bytes.count))
        var start = target
        while start > 0, bytes[start - 1] != 0x0A, bytes[start - 1] != 0x0D { start -= 1 }
        var end = target
        while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        return SourceRange(start: start, end: end)
    }

    /// The text of a byte range, with invalid UTF-8 replaced by U+FFFD.
    /// - Parameter range: A range inside ``bytes``; it is clamped to the text.
    /// - Returns: The decoded text.
    public func text(in range: SourceRange) -> String {
        let start = max(0, min(range.start, bytes.count))
        let end = max(start, min(range.end, bytes.count))
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
