import GatewayTestSupport
import GraphQLLanguage
import Testing

/// The printer against graphql-js's own output for every corpus file that has one.
@Suite(.offPool) struct PrinterConformanceTests {
    @Test(arguments: PrintedCorpus.entries)
    func printingMatchesTheReferenceByteForByte(_ entry: PrintedCorpus.Entry) throws {
        let source = Source(bytes: try PrintedCorpus.bytes(entry.path), name: entry.path)
        let document = try Parser.parse(source, limits: entry.isSchema ? .schemas : .operations)
        let expected = try PrintedCorpus.bytes(entry.printed)
        let printed = Printer.printedBytes(document) + [0x0A]
        if printed != expected {
            let printedLines = String(decoding: printed, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let expectedLines = String(decoding: expected, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let firstDifference = zip(printedLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }
            if let (line, (got, want)) = firstDifference {
                Issue.record("line \(line + 1): printed\n\(got)\nexpected\n\(want)")
            } else {
                Issue.record("printed \(printedLines.count) lines, expected \(expectedLines.count)")
            }
        }
    }

    @Test(arguments: PrintedCorpus.entries)
    func printingTheReprintedTextChangesNothing(_ entry: PrintedCorpus.Entry) throws {
        let limits: Limits = entry.isSchema ? .schemas : .operations
        let first = Printer.print(try Parser.parse(Source(bytes: try PrintedCorpus.bytes(entry.path)), limits: limits))
        let second = Printer.print(try Parser.parse(first, limits: limits))
        #expect(first == second)
    }
}
