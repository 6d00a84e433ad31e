import Foundation
import GatewayTestSupport
import GraphQLLanguage
import Testing
@testable import GatewayCLI

/// The size and limit checks of `parse`, `format`, `normalize` and `check`: files are read no
/// further than the parser will look, and a type definition in a file lifts no limit on its
/// operations.
@Suite(.offPool) struct GraphQLFileLimitsTests {
    let files: GraphQLFilesFixture

    init() throws {
        files = try GraphQLFilesFixture()
    }

    private func run(_ arguments: String...) async -> (status: Int32, sink: CapturedOutput) {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(arguments, output: sink.output(currentDirectory: files.directory))
        return (status, sink)
    }

    /// A file of `size` bytes that takes no disk space (a sparse file of NUL bytes).
    private func sparseFile(_ name: String, size: UInt64) throws -> URL {
        let url = files.directory.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: Data("{f}".utf8))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: size)
        try handle.close()
        return url
    }

    @Test func aHundredMegabyteFileIsReadOnlyAsFarAsTheSchemaLimit() async throws {
        _ = try sparseFile("big.graphql", size: 100 << 20)
        let bytes = try GraphQLFile.read("big.graphql", output: CapturedOutput().output(currentDirectory: files.directory))
        #expect(bytes.count == Limits.schemas.maxBytes + 1)
        let (status, sink) = await run("parse", "big.graphql")
        #expect(status == 1)
        #expect(sink.stderr.hasPrefix("big.graphql:1:1048577: error: Syntax Error: Document is larger than 1048576 bytes."))
    }

    @Test func checkReadsAnOversizedQueryFileOnlyAsFarAsTheOperationLimit() async throws {
        try files.write("schema.graphql", "type Query { f: Int }")
        try FileManager.default.createDirectory(at: files.directory.appendingPathComponent("q"),
                                                withIntermediateDirectories: true)
        _ = try sparseFile("q/big.graphql", size: 100 << 20)
        let (status, sink) = await run("check", "--schema", "schema.graphql", "q")
        #expect(status == 1)
        #expect(sink.stdout.contains("q/big.graphql:1:1048577: error: Syntax Error: Document is larger than 1048576"))
    }

    @Test func tenMegabytesOfOperationsAreRefusedOnce() async throws {
        try files.write("ops.graphql", String(repeating: "{f}", count: 10 << 20 / 3))
        let (status, sink) = await run("parse", "ops.graphql")
        #expect(status == 1)
        #expect(sink.stderr.hasPrefix("ops.graphql:1:15001: error: Syntax Error: Operations and fragments contain "
            + "more than 15000 tokens"))
    }

    @Test func normalizeHoldsOperationsToTheOperationDepthBesideAScalar() async throws {
        try files.write("deep.graphql", "scalar X\n" + String(repeating: "{a", count: 250) + String(repeating: "}", count: 250))
        let (status, sink) = await run("normalize", "deep.graphql")
        #expect(status == 1)
        #expect(sink.stderr.hasPrefix("deep.graphql:2:257: error: Syntax Error: Operation or fragment nests deeper "
            + "than 128 levels"))
        #expect(await run("format", "deep.graphql").status == 1)
        #expect(await run("parse", "deep.graphql").status == 1)
    }

    @Test(arguments: ["aliases", "variables"])
    func normalizeHoldsOperationsToTheOperationTokenLimitBesideAScalar(_ shape: String) async throws {
        let text = shape == "aliases"
            ? "scalar X\n{ " + (0..<200_000).map { "a\($0): f" }.joined(separator: " ") + " }"
            : "scalar X\nquery Q(" + (0..<100_000).map { "$v\($0): Int" }.joined(separator: " ") + ") { f }"
        try files.write("wide.graphql", text)
        let (status, sink) = await run("normalize", "wide.graphql")
        #expect(status == 1)
        #expect(sink.stderr.contains("Operations and fragments contain more than 15000 tokens"))
    }

    @Test func checkListsTheErrorsOfEveryFileAndNamesTheFileItStoppedListing() async throws {
        try files.write("schema.graphql", "type Query { f: Int }")
        try FileManager.default.createDirectory(at: files.directory.appendingPathComponent("q"),
                                                withIntermediateDirectories: true)
        try files.write("q/a.graphql", "query A {" + (0..<150).map { " u\($0)" }.joined() + " }")
        try files.write("q/b.graphql", "query B { unknown }")
        let (status, sink) = await run("check", "--schema", "schema.graphql", "q")
        #expect(status == 1)
        #expect(sink.stdout.contains(#"q/b.graphql:1:11: error: Cannot query field "unknown" on type "Query"."#))
        #expect(sink.stdout.contains("q/a.graphql:1:401: error: Too many validation errors in this file, error "
            + "limit reached; its other errors are not shown."))
        #expect(sink.stdout.hasSuffix("2 files, 2 operations, 0 fragments: 102 errors\n"))
    }

    @Test func checkNamesTheFileItStoppedListingWhenItIsTheOnlyOne() async throws {
        try files.write("schema.graphql", "type Query { f: Int }")
        try files.write("a.graphql", "query A {" + (0..<150).map { " u\($0)" }.joined() + " }")
        let (status, sink) = await run("check", "--schema", "schema.graphql", "a.graphql")
        #expect(status == 1)
        #expect(sink.stdout.contains(
            "a.graphql:1:1: error: Too many validation errors, error limit reached. Validation aborted."))
        #expect(sink.stdout.hasSuffix("1 file, 1 operation, 0 fragments: 101 errors\n"))
    }
}
