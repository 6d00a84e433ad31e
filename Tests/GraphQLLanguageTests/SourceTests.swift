import GraphQLLanguage
import Testing

@Suite struct SourceTests {
    @Test func linesEndAtLineFeedCarriageReturnAndBoth() {
        let source = Source("a\nb\rc\r\nd")
        let expected = [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2), (3, 3), (4, 1), (4, 2)]
        for (offset, (line, column)) in expected.enumerated() {
            let location = source.location(at: offset)
            #expect(location.line == line && location.column == column, "offset \(offset): \(location)")
        }
    }

    @Test func columnsCountCodePointsNotBytes() {
        let source = Source("é😀x")  // 2 + 4 + 1 bytes
        #expect(source.location(at: 2).column == 2)
        #expect(source.location(at: 6).column == 3)
        #expect(source.location(at: 7).column == 4)
    }

    @Test func leadingByteOrderMarkIsDropped() {
        let source = Source(bytes: [0xEF, 0xBB, 0xBF] + Array("{ a }".utf8), name: "bom.graphql")
        #expect(source.bytes == Array("{ a }".utf8))
        #expect(source.location(at: 2).column == 3)
    }

    @Test func offsetsPastTheEndAreClamped() {
        let source = Source("ab")
        let location = source.location(at: 99)
        #expect(location.offset == 2 && location.line == 1 && location.column == 3)
    }

    @Test func lineRangeExcludesTheTerminator() {
        let source = Source("one\r\ntwo\nthree")
        #expect(source.text(in: source.lineRange(containing: 6)) == "two")
        #expect(source.text(in: source.lineRange(containing: 0)) == "one")
        #expect(source.text(in: source.lineRange(containing: 14)) == "three")
    }

    @Test func documentRangesMapToLinesAndColumns() throws {
        let document = try Parser.parse("query Q {\n  hero {\n    name\n  }\n}")
        guard case .operation(let operation) = try #require(document.definitions.first),
            case .field(let hero) = try #require(operation.selectionSet.selections.first)
        else {
            Issue.record("unexpected shape")
            return
        }
        let source = try #require(document.source)
        let start = source.location(at: hero.range.start)
        let end = source.location(at: hero.range.end)
        #expect((start.line, start.column) == (2, 3))
        #expect((end.line, end.column) == (4, 4))
    }
}
