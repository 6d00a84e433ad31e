@testable import GraphQLLanguage
import Testing

/// The value of a block string, worked out while the lexer reads it (for values that are one
/// stretch of the source) or afterwards, against the spec's `BlockStringValue()` written out plainly.
@Suite struct BlockStringValueTests {
    /// The spec's algorithm on the text between the quotes.
    static func reference(_ content: String) -> String {
        let quotes = String(repeating: "\"", count: 3)
        let raw = content.replacingAll("\\" + quotes, with: quotes)
        var lines: [Substring] = []
        var current = raw.startIndex
        var index = raw.startIndex
        // Split on CRLF, LF and CR; Swift treats "\r\n" as one Character.
        while index < raw.endIndex {
            let character = raw[index]
            if character == "\n" || character == "\r" || character == "\r\n" {
                lines.append(raw[current..<index])
                current = raw.index(after: index)
            }
            index = raw.index(after: index)
        }
        lines.append(raw[current...])
        func indentation(_ line: Substring) -> Int { line.prefix { $0 == " " || $0 == "\t" }.count }
        var common: Int?
        for line in lines.dropFirst() where indentation(line) < line.count {
            common = min(common ?? .max, indentation(line))
        }
        if let common {
            for position in lines.indices.dropFirst() { lines[position] = lines[position].dropFirst(common) }
        }
        while let first = lines.first, indentation(first) == first.count { lines.removeFirst() }
        while let last = lines.last, indentation(last) == last.count { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// The value as the parser gets it (from the lexer that read the token), whether the lexer
    /// had it worked out, and the value worked out afterwards from the text alone.
    static func values(_ content: String) throws -> (read: String, shortcut: Bool, computed: String) {
        let bytes = Array(("\"\"\"" + content + "\"\"\"").utf8)
        return try bytes.withUnsafeBufferPointer { buffer in
            var lexer = Lexer(bytes: buffer, maxIgnoredTokens: 1_000)
            let token = try lexer.next()
            #expect(token.kind == .blockString && token.end == buffer.count)
            let fresh = Lexer(bytes: buffer, maxIgnoredTokens: 1_000)
            return (
                lexer.blockStringValue(of: token), lexer.lastBlockString.start == token.start,
                fresh.blockStringValue(of: token)
            )
        }
    }

    @Test(arguments: [
        "", " ", "\n", "\n  \n", "one line", "  keeps its indentation  ", "\n  A description.\n  ",
        "\r\n    CRLF lines\r\n  ", "\r  CR lines\r", "\t\ttabs\n\t", "first\n   second", "\n\n  x\n\n",
        "é and 😀\n  ", "a \\\"\"\" b", "\n  \\\"\"\"\n", "quote \" inside", "\\ backslash \\n", "\n  a\n  b\n",
        "  \n  x", "x\n  \n", "\n    deep\n  shallow\n",
    ])
    func shortcutAndFullAlgorithmAgreeWithTheSpec(_ content: String) throws {
        let (read, _, computed) = try Self.values(content)
        #expect(read == Self.reference(content))
        #expect(computed == Self.reference(content))
    }

    @Test func descriptionsOnOneLineTakeTheShortcut() throws {
        #expect(try Self.values("\n  A description.\n  ").shortcut)
        #expect(try Self.values("one line").shortcut)
        #expect(try Self.values("").shortcut)
        #expect(try !Self.values("\n  two\n  lines\n").shortcut)
        #expect(try !Self.values("escaped \\\"\"\"").shortcut)
    }

    @Test func generatedBlockStringsAgreeWithTheSpec() throws {
        let pieces = ["", " ", "  ", "\t", "a", "word", "é", "\"a", "\\\"\"\"", "x y", "\\"]
        let breaks = ["\n", "\r\n", "\r"]
        var random = SeededGenerator(seed: 42)
        for _ in 0..<2_000 {
            var content = ""
            for line in 0..<Int.random(in: 1...5, using: &random) {
                if line > 0 { content += breaks.randomElement(using: &random) ?? "\n" }
                for _ in 0..<Int.random(in: 0...4, using: &random) {
                    content += pieces.randomElement(using: &random) ?? ""
                }
            }
            // A trailing backslash or quote would run into the closing quotes.
            if content.hasSuffix("\\") || content.hasSuffix("\"") { content += "z" }
            let (read, _, computed) = try Self.values(content)
            #expect(read == Self.reference(content), "\(content.debugDescription)")
            #expect(computed == read, "\(content.debugDescription)")
        }
    }
}

extension String {
    /// The string with every occurrence of `target` replaced, scanning from the left.
    fileprivate func replacingAll(_ target: String, with replacement: String) -> String {
        var result = ""
        var rest = Substring(self)
        while let range = rest.range(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

extension Substring {
    fileprivate func range(of target: String) -> Range<Index>? {
        var start = startIndex
        while start < endIndex {
            if self[start...].hasPrefix(target) {
                return start..<index(start, offsetBy: target.count)
            }
            start = index(after: start)
        }
        return nil
    }
}
