/// The comments of a GraphQL file as `gateway format` treats them: the block of comment lines at
/// the top of the file is kept above the canonical text; a comment anywhere else would be dropped
/// by the canonical form, so `--write` refuses to rewrite such a file.
struct FormatComments {
    /// The comment lines before the first definition, each without trailing white space, with
    /// the blank lines between them; empty when the file starts with a definition.
    var header: [UInt8] = []
    /// The offset of the first comment after the first definition began, if any.
    var firstDroppedComment: Int?

    /// Scans `bytes` for comments outside strings.
    init(_ bytes: [UInt8]) {
        var index = 0
        var firstToken: Int?
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "#"):
                if firstToken != nil {
                    firstDroppedComment = index
                    return
                }
                while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ","), 0x0A, 0x0D:
                index += 1
            case UInt8(ascii: "\""):
                if firstToken == nil { firstToken = index }
                index = Self.endOfString(bytes, from: index)
            default:
                if firstToken == nil { firstToken = index }
                index += 1
            }
        }
        let end = firstToken ?? bytes.count
        header = Self.trimmedLines(bytes[..<end])
    }

    /// The offset just past the string or block string starting at `start`.
    private static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        let quote = UInt8(ascii: "\"")
        let isBlock = start + 2 < bytes.count && bytes[start + 1] == quote && bytes[start + 2] == quote
        var index = start + (isBlock ? 3 : 1)
        while index < bytes.count {
            let byte = bytes[index]
            if isBlock {
                if byte == UInt8(ascii: "\\"), index + 3 < bytes.count, bytes[index + 1] == quote,
                   bytes[index + 2] == quote, bytes[index + 3] == quote {
                    index += 4
                    continue
                }
                if byte == quote, index + 2 < bytes.count, bytes[index + 1] == quote, bytes[index + 2] == quote {
                    return index + 3
                }
            } else {
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == quote || byte == 0x0A || byte == 0x0D { return index + 1 }
            }
            index += 1
        }
        return index
    }

    /// The comment lines of the header, trailing white space removed, leading and trailing blank
    /// lines dropped, each ending in a line feed.
    private static func trimmedLines(_ region: ArraySlice<UInt8>) -> [UInt8] {
        var lines: [[UInt8]] = []
        for line in region.split(omittingEmptySubsequences: false, whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            var text = Array(line)
            while let last = text.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { text.removeLast() }
            lines.append(text)
        }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.flatMap { $0 + [0x0A] }
    }
}
