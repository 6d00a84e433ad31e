/// Turns byte offsets of one or more documents into ``SourceLocation``s, scanning each source for
/// its line starts once instead of once per location.
///
/// A column counts code points from the line start. On a long line that would mean a scan per
/// location, so the scan also records, every ``checkpointSpacing`` bytes, the column there; a
/// location then counts from the nearest checkpoint or line start before it.
struct SourceLocator {
    private struct Lines {
        var starts: [Int]
        /// The column (code points since the line start, plus one) at each multiple of
        /// ``checkpointSpacing``.
        var checkpoints: [Int]
    }

    static let checkpointSpacing = 1024

    private let sources: [Source?]
    private var lines: [Lines?]

    /// Creates a locator for the sources of `documents`, indexed like them.
    init(documents: [Document]) {
        sources = documents.map(\.source)
        lines = Array(repeating: nil, count: documents.count)
    }

    /// The location of `offset` in document `document`.
    ///
    /// Lines end at LF, CR or CRLF and columns count code points, as ``Source/location(at:)`` does.
    /// Documents built in code, without a source, get line and column 0.
    mutating func location(document: Int, offset: Int) -> SourceLocation {
        guard document >= 0, document < sources.count, let source = sources[document] else {
            return SourceLocation(offset: offset, line: 0, column: 0)
        }
        if lines[document] == nil { lines[document] = Self.lines(of: source.bytes) }
        let starts = lines[document]?.starts ?? [0]
        let checkpoints = lines[document]?.checkpoints ?? [1]
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
        let checkpoint = target / Self.checkpointSpacing
        if checkpoint * Self.checkpointSpacing > index, checkpoint < checkpoints.count {
            index = checkpoint * Self.checkpointSpacing
            column = checkpoints[checkpoint]
        }
        let bytes = source.bytes
        while index < target {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourceLocation(offset: target, line: low + 1, column: column, source: source)
    }

    private static func lines(of bytes: [UInt8]) -> Lines {
        var starts = [0]
        var checkpoints: [Int] = []
        checkpoints.reserveCapacity(bytes.count / checkpointSpacing + 1)
        var column = 1
        var index = 0
        while index < bytes.count {
            if index % checkpointSpacing == 0 { checkpoints.append(column) }
            let byte = bytes[index]
            if byte == 0x0A {
                starts.append(index + 1)
                column = 1
            } else if byte == 0x0D {
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                    index += 1
                    if index % checkpointSpacing == 0 { checkpoints.append(column + 1) }
                }
                starts.append(index + 1)
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return Lines(starts: starts, checkpoints: checkpoints)
    }
}
