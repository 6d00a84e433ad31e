import Foundation
import GatewayTestSupport
import GraphQLLanguage
import Testing
@testable import GatewayCLI

/// `gateway parse`, `format` and `normalize` through the dispatcher, one test per flag and exit code.
/// Some parse or format large generated files: the suite runs on the CPU lane.
@Suite(.offPool) struct GraphQLCommandTests {
    let files: GraphQLFilesFixture

    init() throws {
        files = try GraphQLFilesFixture()
    }

    private func run(_ arguments: String...) async -> (status: Int32, sink: CapturedOutput) {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(arguments, output: sink.output(currentDirectory: files.directory))
        return (status, sink)
    }

    // MARK: parse

    @Test func parseSucceedsSilentlyWhenEveryFileParses() async throws {
        try files.write("a.graphql", "query A { a }")
        try files.write("b.graphql", "type T { f: Int }")
        let (status, sink) = await run("parse", "a.graphql", "b.graphql")
        #expect(status == 0)
        #expect(sink.stdout.isEmpty && sink.stderr.isEmpty)
    }

    @Test func parseReportsEachErrorWithItsLineAndACaret() async throws {
        try files.write("good.graphql", "{ a }")
        try files.write("bad.graphql", "query {\n  alias: \n}\n")
        try files.write("worse.graphql", "{ a(x: ) }")
        let (status, sink) = await run("parse", "good.graphql", "bad.graphql", "worse.graphql")
        #expect(status == 1)
        let lines = sink.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines.prefix(3)) == ["bad.graphql:3:1: error: Syntax Error: Expected Name, found \"}\".", "}", "^"])
        #expect(Array(lines.dropFirst(3).prefix(3)) == [
            "worse.graphql:1:8: error: Syntax Error: Unexpected \")\".", "{ a(x: ) }", "       ^",
        ])
    }

    @Test func parseWritesErrorsAsJSON() async throws {
        try files.write("bad.graphql", "query {\n  alias: \n}\n")
        try files.write("good.graphql", "{ a }")
        let (status, sink) = await run("parse", "--format", "json", "good.graphql", "bad.graphql")
        #expect(status == 1)
        let errors = try #require(try JSONValue(parsing: sink.stdout).arrayValue)
        #expect(errors.count == 1)
        #expect(errors.first?["file"]?.stringValue == "bad.graphql")
        #expect(errors.first?["line"]?.intValue == 3)
        #expect(errors.first?["column"]?.intValue == 1)
        #expect(errors.first?["message"]?.stringValue == "Syntax Error: Expected Name, found \"}\".")
        let (cleanStatus, clean) = await run("parse", "--format=json", "good.graphql")
        #expect(cleanStatus == 0)
        #expect(try JSONValue(parsing: clean.stdout) == .array([]))
    }

    @Test func parseChoosesTheSchemaProfileForLargeSDLButNotForLargeOperations() async throws {
        let types = (0..<20_000).map { "type T\($0) { field: String }" }.joined(separator: "\n")
        try files.write("big.graphql", types)
        #expect(await run("parse", "big.graphql").status == 0)
        let fields = (0..<16_000).map { "f\($0)" }.joined(separator: " ")
        try files.write("huge-query.graphql", "{ \(fields) }")
        let (status, sink) = await run("parse", "huge-query.graphql")
        #expect(status == 1)
        #expect(sink.stderr.contains("more than 15000 tokens"))
        #expect(await run("parse", "--schema", "huge-query.graphql").status == 0)
    }

    @Test func parseMisuseAndUnreadableFilesExitWithTwo() async throws {
        #expect(await run("parse").status == 2)
        #expect(await run("parse", "--format", "xml", "a.graphql").status == 2)
        #expect(await run("parse", "--bogus", "a.graphql").status == 2)
        let (status, sink) = await run("parse", "missing.graphql")
        #expect(status == 2)
        #expect(sink.stderr.contains("cannot read 'missing.graphql': no such file"))
        #expect(await run("parse", ".").status == 2)
    }

    // MARK: format

    @Test func formatPrintsTheCanonicalForm() async throws {
        try files.write("a.graphql", "query Q($id: ID!) { node(id: $id) { id, ... on User { name } } } # trailing")
        try files.write("b.graphql", "type T { f(a: Int): [String!]! }")
        let (status, sink) = await run("format", "a.graphql", "b.graphql")
        #expect(status == 0)
        #expect(
            sink.stdout == """
                query Q($id: ID!) {
                  node(id: $id) {
                    id
                    ... on User {
                      name
                    }
                  }
                }
                type T {
                  f(a: Int): [String!]!
                }

                """)
    }

    @Test func formatCheckNamesTheFilesNotInCanonicalForm() async throws {
        try files.write("canonical.graphql", "{\n  a\n}\n")
        try files.write("messy.graphql", "{ a }")
        let (status, sink) = await run("format", "--check", "canonical.graphql", "messy.graphql")
        #expect(status == 1)
        #expect(sink.stdout == "messy.graphql\n")
        let (cleanStatus, clean) = await run("format", "--check", "canonical.graphql")
        #expect(cleanStatus == 0)
        #expect(clean.stdout.isEmpty)
    }

    @Test func formatWriteRewritesFilesInPlace() async throws {
        try files.write("messy.graphql", "{ a, b(x: 1) }")
        try files.write("bad.graphql", "{ a(")
        let (status, sink) = await run("format", "--write", "messy.graphql")
        #expect(status == 0)
        #expect(sink.stdout.isEmpty)
        #expect(try files.read("messy.graphql") == "{\n  a\n  b(x: 1)\n}\n")
        let (badStatus, bad) = await run("format", "--write", "bad.graphql")
        #expect(badStatus == 1)
        #expect(bad.stderr.hasPrefix("bad.graphql:1:5: error: Syntax Error:"))
        #expect(try files.read("bad.graphql") == "{ a(")
    }

    @Test func formatSchemaParsesWithTheSchemaLimits() async throws {
        let fields = (0..<16_000).map { "f\($0)" }.joined(separator: " ")
        try files.write("huge-query.graphql", "{ \(fields) }")
        #expect(await run("format", "--check", "huge-query.graphql").status == 1)
        let (status, sink) = await run("format", "--schema", "huge-query.graphql")
        #expect(status == 0)
        #expect(sink.stdout.hasPrefix("{\n  f0\n  f1\n"))
    }

    @Test func formatMisuseAndUnreadableFilesExitWithTwo() async throws {
        try files.write("a.graphql", "{ a }")
        #expect(await run("format").status == 2)
        #expect(await run("format", "--check", "--write", "a.graphql").status == 2)
        let (status, sink) = await run("format", "a.graphql", "missing.graphql")
        #expect(status == 2)
        #expect(sink.stdout == "{\n  a\n}\n")
        #expect(sink.stderr.contains("missing.graphql"))
    }

    // MARK: normalize

    @Test func normalizePrintsTheNormalizedOperation() async throws {
        try files.write("ops.graphql", """
            query B { b }
            query A($y: Int, $x: Int) { a(y: $y, x: $x) { ...F } }
            fragment F on T { id }
            fragment Unused on T { id }
            """)
        let (status, sink) = await run("normalize", "ops.graphql", "--operation", "A")
        #expect(status == 0)
        #expect(sink.stdout == "query A($x:Int$y:Int){a(x:$x y:$y){...F}}fragment F on T{id}\n")
    }

    @Test func normalizeExplainsAMissingOrUnknownOperation() async throws {
        try files.write("ops.graphql", "query A { a } query B { b }")
        let (status, sink) = await run("normalize", "ops.graphql")
        #expect(status == 1)
        #expect(sink.stderr.contains("Must provide operation name"))
        #expect(sink.stderr.contains("--operation NAME"))
        let (unknownStatus, unknown) = await run("normalize", "ops.graphql", "--operation", "C")
        #expect(unknownStatus == 1)
        #expect(unknown.stderr.contains("Unknown operation named \"C\""))
        try files.write("bad.graphql", "query {")
        #expect(await run("normalize", "bad.graphql").status == 1)
    }

    @Test func normalizeMisuseAndUnreadableFilesExitWithTwo() async throws {
        try files.write("a.graphql", "{ a }")
        #expect(await run("normalize").status == 2)
        #expect(await run("normalize", "a.graphql", "a.graphql").status == 2)
        #expect(await run("normalize", "a.graphql", "--operation").status == 2)
        #expect(await run("normalize", "missing.graphql").status == 2)
    }

    // MARK: help

    @Test(arguments: ["parse", "format", "normalize", "bench"])
    func helpExplainsEveryFlagAndExitStatus(verb: String) async throws {
        let (status, sink) = await run("help", verb)
        #expect(status == 0)
        #expect(sink.stdout.contains("Usage: gateway \(verb)"))
        #expect(sink.stdout.contains("Exit status"))
        let flags: [String: [String]] = [
            "parse": ["--format", "--schema"], "format": ["--check", "--write", "--schema"],
            "normalize": ["--operation"], "bench": ["--json", "--time", "--operation", "--schema"],
        ]
        for flag in flags[verb] ?? [] { #expect(sink.stdout.contains(flag), "\(verb) help lacks \(flag)") }
        let (listed, list) = await run("--help")
        #expect(listed == 0)
        #expect(list.stdout.contains("  \(verb) "))
    }
}
