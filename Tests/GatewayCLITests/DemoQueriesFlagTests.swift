import Foundation
import GatewayTestSupport
import GatewayTesting
import Testing
@testable import GatewayCLI

/// `gateway demo --queries DIR`: the demo sends the types generated from `Queries/`, and checks
/// the folder against the schema and against those types, warning when they are stale.
@Suite(.offPool, .quietScheduler) struct DemoQueriesFlagTests {
    /// Runs `gateway demo` with its own `--dir` and the schema of the package.
    private func demo(_ extra: [String], _ label: String = #function) async throws -> (Int32, CapturedOutput) {
        let folder = try CacheTestFolder(label)
        let sink = CapturedOutput()
        let output = sink.output(environment: [:], isTerminal: false,
                                 currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        let arguments = ["demo", "--dir", folder.file("demo"), "--schema", DemoFixture.schemaURL.path] + extra
        let status = await Dispatcher.standard.run(arguments, output: output)
        return (status, sink)
    }

    /// A copy of `Queries/` in `folder`, changed by `change`.
    private func queries(in folder: CacheTestFolder, _ change: (URL) throws -> Void) throws -> URL {
        let copy = URL(fileURLWithPath: folder.file("Queries"))
        try FileManager.default.copyItem(at: QueryFiles.queries, to: copy)
        try change(copy)
        return copy
    }

    @Test func theOperationsOfQueriesMatchTheGeneratedTypesTheDemoSends() throws {
        let store = try DemoFixture.operations()
        #expect(DemoOperations.differences(from: store).isEmpty)
        #expect(Set(DemoOperations.types.map { $0.definition.name }) == Set(store.names),
                "the demo sends every operation of Queries/")
    }

    @Test func aFolderThatDiffersFromTheGeneratedTypesIsAWarningAndTheDemoStillRuns() async throws {
        let folder = try CacheTestFolder()
        let changed = try queries(in: folder) { copy in
            try FileManager.default.removeItem(at: copy.appendingPathComponent("Me.graphql"))
            let track = copy.appendingPathComponent("GetTrack.graphql")
            let text = try String(contentsOf: track, encoding: .utf8).replacingOccurrences(of: "    genres\n", with: "")
            try Data(text.utf8).write(to: track)
        }
        let (status, sink) = try await demo(["--queries", changed.path])
        #expect(status == 0, "\(sink.stdout)\n\(sink.stderr)")
        #expect(sink.stdout.contains("15 steps, 21 requests, all as expected."))
        let warning = sink.stderr
        #expect(warning.hasPrefix("gateway demo: warning: the operations in \(changed.path) differ from the generated "
                                  + "types the demo was built with (Tests/MusicOperations): Me (missing), "
                                  + "GetTrack (changed)."), "\(warning)")
        #expect(warning.contains("swift run gateway generate --output Tests/MusicOperations --schema "))
        #expect(!sink.stdout.contains("warning"), "standard output stays as it was")
    }

    @Test func anInvalidOperationInTheFolderStopsTheDemo() async throws {
        let folder = try CacheTestFolder()
        let broken = try queries(in: folder) { copy in
            let broken = copy.appendingPathComponent("Broken.graphql")
            try Data("query Broken { track(id: 1) { nope } }\n".utf8).write(to: broken)
        }
        let (status, sink) = try await demo(["--queries", broken.path])
        #expect(status == 1)
        #expect(sink.stderr.contains("could not load the operations in \(broken.path)"), "\(sink.stderr)")
        #expect(sink.stdout.isEmpty)
    }

    @Test func withoutAQueriesFolderBesideTheSchemaTheDemoRunsWithoutTheCheck() async throws {
        let folder = try CacheTestFolder()
        let schemas = URL(fileURLWithPath: folder.file("Schemas"))
        try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
        let schema = schemas.appendingPathComponent("music.graphql")
        try FileManager.default.copyItem(at: DemoFixture.schemaURL, to: schema)
        let sink = CapturedOutput()
        let here = URL(fileURLWithPath: folder.path)
        let output = sink.output(environment: [:], isTerminal: false, currentDirectory: here)
        let status = await Dispatcher.standard.run(["demo", "--dir", folder.file("demo")], output: output)
        #expect(status == 0, "\(sink.stdout)\n\(sink.stderr)")
        #expect(sink.stderr.isEmpty)
    }
}
