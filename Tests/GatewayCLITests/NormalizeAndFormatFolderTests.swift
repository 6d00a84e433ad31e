import Foundation
import GatewayTestSupport
import GraphQLLanguage
import Testing
@testable import GatewayCLI

/// `normalize` finds fragments across the folder and points at what is wrong; `format` never drops
/// a comment from a file it rewrites; the repository's own Queries/ are canonical.
@Suite(.offPool) struct NormalizeAndFormatFolderTests {
    let files: GraphQLFilesFixture

    init() throws {
        files = try GraphQLFilesFixture()
    }

    /// The package root: Queries/ and Schemas/ are there.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private func run(_ arguments: [String], in directory: URL? = nil) async -> (status: Int32, sink: CapturedOutput) {
        let sink = CapturedOutput()
        let output = sink.output(currentDirectory: directory ?? files.directory)
        let status = await Dispatcher.standard.run(arguments, output: output)
        return (status, sink)
    }

    @Test func theReadmesNormalizeExampleFindsItsFragmentsInTheFolder() async throws {
        let (status, sink) = await run(["normalize", "Queries/GetTrack.graphql"], in: Self.packageRoot)
        #expect(status == 0)
        #expect(sink.stdout.hasPrefix("query GetTrack($id:ID!){track(id:$id){...TrackSummary "))
        #expect(sink.stdout.contains("fragment TrackSummary on Track{"))
        #expect(sink.stderr.isEmpty)
    }

    @Test func anUnknownFragmentIsReportedAtItsSpread() async throws {
        try files.write("a.graphql", "query Q {\n  f {\n    ...Missing\n  }\n}\n")
        try files.write("b.graphql", "fragment Other on T { x }")
        let (status, sink) = await run(["normalize", "a.graphql"])
        #expect(status == 1)
        #expect(sink.stderr.hasPrefix(#"gateway normalize: a.graphql:3:5: Unknown fragment "Missing", spread in "Q""#))
    }

    @Test func aFragmentOfAnotherFileOfTheFolderIsUsed() async throws {
        try files.write("a.graphql", "query Q { f { ...Shared } }")
        try files.write("b.graphql", "fragment Shared on T { x }\nfragment Unused on T { y }")
        let (status, sink) = await run(["normalize", "a.graphql"])
        #expect(status == 0)
        #expect(sink.stdout == "query Q{f{...Shared}}fragment Shared on T{x}\n")
    }

    @Test func variableProblemsDoNotSayThatNothingWasSent() async throws {
        try files.write("a.graphql", "query Q($id: ID!) { f(id: $id) }")
        let (status, sink) = await run(["normalize", "a.graphql", "--variables", "{}"])
        #expect(status == 1)
        #expect(!sink.stderr.contains("sent"))
        #expect(sink.stderr.contains("gateway normalize: 1 variable problem:"))
    }

    @Test func formatWriteRefusesToDropAComment() async throws {
        let text = "{ a # why a\n b }\n"
        try files.write("c.graphql", text)
        let (status, sink) = await run(["format", "--write", "c.graphql"])
        #expect(status == 1)
        #expect(sink.stderr.hasPrefix("c.graphql:1:5: error: the canonical form drops this comment"))
        #expect(try files.read("c.graphql") == text)
    }

    @Test func formatKeepsTheCommentLinesAtTheTopOfAFile() async throws {
        try files.write("h.graphql", "# Shared fragments.\n# Second line.   \n\nquery   Q { a }")
        #expect(await run(["format", "--write", "h.graphql"]).status == 0)
        #expect(try files.read("h.graphql") == "# Shared fragments.\n# Second line.\n\nquery Q {\n  a\n}\n")
        #expect(await run(["format", "--check", "h.graphql"]).status == 0)
    }

    @Test func theRepositorysQueriesAreCanonical() async throws {
        let names = CheckFiles.files(in: Self.packageRoot.appendingPathComponent("Queries"), extensions: ["graphql"])
        #expect(!names.isEmpty)
        let (status, sink) = await run(["format", "--check"] + names.map { "Queries/" + $0 }, in: Self.packageRoot)
        #expect(sink.stdout.isEmpty)
        #expect(status == 0)
    }
}
