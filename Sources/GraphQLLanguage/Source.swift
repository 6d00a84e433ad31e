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
        var line = 1
        var lineStart = 0
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            while index < target {
                let byte = buffer[index]
                if byte == 0x0A {
                    line += 1
                    lineStart = index + 1
                } else if byte == 0x0D {
                    if index + 1 < buffer.count, buffer[index + 1] == 0x0A {
                        index += 1
                        if index >= target { break }
                    }
                    line += 1
                    lineStart = index + 1
                }
                index += 1
            }
        }
        var column = 1
        var index = lineStart
        while index < target {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourceLocation(offset: target, line: line, column: column, source: self)
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
