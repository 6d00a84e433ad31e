/// Turns byte offsets of one or more documents into ``SourceLocation``s, scanning each source for
/// its line starts once instead of once per location.
struct SourceLocator {
    private let sources: [Source?]
    private var lineStarts: [[Int]?]

    /// Creates a locator for the sources of `documents`, indexed like them.
    init(documents: [Document]) {
        sources = documents.map(\.source)
        lineStarts = Array(repeating: nil, count: documents.count)
    }

    /// The location of `offset` in document `document`.
    ///
    /// Lines end at LF, CR or CRLF and columns count code points, as ``Source/location(at:)`` does.
    /// Documents built in code, without a source, get line and column 0.
    mutating func location(document: Int, offset: Int) -> SourceLocation {
        guard document >= 0, document < sources.count, let source = sources[document] else {
            return SourceLocation(offset: offset, line: 0, column: 0)
        }
        if lineStarts[document] == nil { lineStarts[document] = Self.lineStarts(of: source.bytes) }
        let starts = lineStarts[document] ?? [0]
        let target = max(0, min(offset, source.bytes.count))
        // The last line start at or before `target`.
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= target { low = middle } else { high = middle - 1 }
        }
        var column = 1
        var index = starts[low]
        let bytes = source.bytes
        while index < target {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourceLocation(offset: target, line: low + 1, column: column, source: source)
    }

    private static func lineStarts(of bytes: [UInt8]) -> [Int] {
        var starts = [0]
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                starts.append(index + 1)
            } else if byte == 0x0D {
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                starts.append(index + 1)
            }
            index += 1
        }
        return starts
    }
}
