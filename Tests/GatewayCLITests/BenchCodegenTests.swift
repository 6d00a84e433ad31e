import Foundation
import GatewayTestSupport
import Testing
@testable import GatewayCLI

/// `gateway bench codegen`: its output form and exit statuses, not its speed.
@Suite(.offPool) struct BenchCodegenTests {
    private func run(_ arguments: String..., in directory: URL = CheckCommandTests.packageRoot) async -> (Int32, CapturedOutput) {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(arguments, output: sink.output(currentDirectory: directory))
        return (status, sink)
    }

    @Test func benchCodegenPrintsOneLineForTheFolder() async {
        let (status, sink) = await run("bench", "codegen", "Schemas/music.graphql", "Queries", "--time", "0.02")
        #expect(status == 0, "\(sink.stderr)")
        let lines = sink.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("codegen Queries (11 files): median ") == true, "\(sink.stdout)")
    }

    @Test func benchCodegenRefusesQueriesThatDoNotGenerate() async throws {
        let files = try GraphQLFilesFixture()
        try files.write("Bad.graphql", "query Bad { nope }")
        let schema = CheckCommandTests.packageRoot.appendingPathComponent("Schemas/music.graphql").path
        let (status, sink) = await run("bench", "codegen", schema, "Bad.graphql", "--time", "0.02", in: files.directory)
        #expect(status == 1)
        #expect(sink.stderr.contains("Bad.graphql:1:13: error: Cannot query field \"nope\" on type \"Query\"."))
    }
}
