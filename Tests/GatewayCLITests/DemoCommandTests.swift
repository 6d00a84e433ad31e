import Foundation
import Gateway
import GatewayTestSupport
import GatewayTesting
import GraphQLLanguage
import Testing
@testable import GatewayCLI
@testable import GatewayDemoBackend

/// `gateway demo` through the dispatcher, as a person runs it, and `gateway cache` on what it
/// leaves behind. The demo writes its token file and SQLite cache: the suite runs off the
/// cooperative pool.
@Suite(.offPool, .quietScheduler) struct DemoCommandTests {
    /// Every request of the script that does not depend on timing: kind, name, status, cache.
    static let rows: [String] = [
        "REST login 200 not cacheable",
        "GraphQL Me 200 miss",
        "GraphQL GetTrack id=1 200 miss",
        "GraphQL GetTrack id=1 200 hit",
        "GraphQL GetTrack id=4 200 miss",
        "GraphQL Search \"light\" 200 miss",
        "REST GET tracks/6 200 miss",
        "REST GET tracks/6 200 hit",
        "GraphQL MyCollection 200 miss",
        "GraphQL GetArtist id=1 200 miss",
        "GraphQL GetRelease id=10 200 miss",
        "GraphQL GetPlaylist id=p1 200 miss",
        "REST profile 200 not cacheable",
        "REST stream URL track 2 200 not cacheable",
        "REST token refresh 200 -",
        "GraphQL LikeTrack id=4 200 not cacheable",
        "GraphQL GetTrack id=4 200 miss",
        "GraphQL Search \"light\" 200 miss",
        "GraphQL CreatePlaylist 200 not cacheable",
        "GraphQL UploadPlaylistCover 200 not cacheable",
        "REST stream URL track 4 200 not cacheable",
    ]

    /// The example API's files, given explicitly so the tests do not depend on the working folder.
    static let apiFiles = ["--schema", DemoFixture.schemaURL.path, "--queries", QueryFiles.queries.path]

    private func run(_ arguments: [String], environment: [String: String] = [:], isTerminal: Bool = false,
                     directory: URL? = nil) async -> (status: Int32, sink: CapturedOutput) {
        let sink = CapturedOutput()
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let output = sink.output(environment: environment, isTerminal: isTerminal, currentDirectory: directory ?? here)
        let status = await Dispatcher.standard.run(arguments, output: output)
        return (status, sink)
    }

    /// Runs the demo in a new folder of its own, which is removed when the folder value goes.
    private func demo(_ extra: [String] = [], environment: [String: String] = [:], isTerminal: Bool = false,
                      _ label: String = #function) async throws -> (CacheTestFolder, Int32, CapturedOutput) {
        let folder = try CacheTestFolder(label)
        let (status, sink) = await run(["demo", "--dir", folder.path] + Self.apiFiles + extra,
                                       environment: environment, isTerminal: isTerminal)
        return (folder, status, sink)
    }

    /// The table's rows as `kind name status cache`, and their cells.
    private static func tableRows(_ stdout: String) -> [[String]] {
        stdout.components(separatedBy: "\n").filter { $0.hasPrefix("REST ") || $0.hasPrefix("GraphQL ") }
            .map { row in
                row.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
    }

    @Test func theDemoExitsZeroPrintsEveryRequestAndSeesExactlyOneRefresh() async throws {
        let (folder, status, sink) = try await demo()
        #expect(status == 0, "stdout:\n\(sink.stdout)\nstderr:\n\(sink.stderr)")
        #expect(sink.stderr.isEmpty)
        let header = try #require(sink.stdout.components(separatedBy: "\n").first { $0.hasPrefix("KIND") })
        for title in ["NAME", "STATUS", "CACHE", "ATTEMPTS", "TIME"] { #expect(header.contains(title)) }
        let rows = Self.tableRows(sink.stdout)
        #expect(rows.allSatisfy { $0.count == 6 }, "\(rows)")
        let described = rows.map { $0.prefix(4).joined(separator: " ") }
        #expect(described.sorted() == Self.rows.sorted(), "\(described)")
        #expect(rows.allSatisfy { $0.last?.hasSuffix(" ms") == true })
        let replayed = rows.filter { $0.count == 6 && $0[4].hasSuffix("(1 replay)") }
        #expect((1...5).contains(replayed.count), "the refused requests are replayed once each")
        #expect(rows.filter { $0[1] == "token refresh" }.count == 1)
        #expect(sink.stdout.contains("The backend saw 1 token refresh (POST /auth/refresh)"))
        #expect(sink.stdout.contains("15 steps, 21 requests, all as expected."))
        #expect(!sink.stdout.contains("FAIL"))
        let lastLine = sink.stdout.trimmingCharacters(in: .whitespacesAndNewlines).components(separatedBy: "\n").last
        #expect(lastLine == "  gateway cache list --db \(folder.file("cache.sqlite"))")
    }

    @Test func theTableColumnsLineUp() async throws {
        let (_, status, sink) = try await demo()
        try #require(status == 0)
        let lines = sink.stdout.components(separatedBy: "\n")
        let header = try #require(lines.first { $0.hasPrefix("KIND") })
        let rows = lines.filter { $0.hasPrefix("REST ") || $0.hasPrefix("GraphQL ") }
        for title in ["NAME", "STATUS", "CACHE", "ATTEMPTS"] {
            let column = try #require(header.range(of: title)).lowerBound.utf16Offset(in: header)
            for row in rows {
                let index = row.index(row.startIndex, offsetBy: column)
                #expect(row[row.index(before: index)] == " ", "\(title) starts a column in: \(row)")
                #expect(row[index] != " ", "\(title) starts a column in: \(row)")
            }
        }
        #expect(rows.allSatisfy { $0.count == header.count }, "the right-aligned TIME column ends every row together")
    }

    @Test func theCacheToolReadsWhatTheDemoLeftBehind() async throws {
        let (folder, status, sink) = try await demo()
        try #require(status == 0, "\(sink.stdout)\n\(sink.stderr)")
        let database = folder.file("cache.sqlite")

        let list = await runCache(["list", "--json"], database: database, now: Date())
        try #require(list.status == 0, "\(list.transcript)")
        let entries = try #require(try list.json().arrayValue)
        let names = entries.compactMap { $0["operationName"]?.stringValue }.sorted()
        #expect(names == ["GetArtist", "GetPlaylist", "GetRelease", "GetTrack", "GetTrack", "Me", "MyCollection",
                          "Search"])
        #expect(entries.contains { $0["kind"] == "rest" && $0["name"]?.stringValue?.hasSuffix("/tracks/6") == true })
        #expect(entries.allSatisfy { $0["partition"] == "listener-1" })
        let tracks = entries.filter { $0["operationName"] == "GetTrack" }.compactMap { $0["key"]?.stringValue }
        try #require(tracks.count == 2)

        let show = await runCache(["show", String(tracks[0].prefix(12))], database: database, now: Date())
        #expect(show.status == 0, "\(show.transcript)")
        for part in ["Query:", "query GetTrack($id: ID!) {", "fragment TrackSummary on Track {", "Variables",
                     "Endpoint", "/graphql", "Partition  listener-1", "\"track\""] {
            #expect(show.stdout.contains(part), "show prints \(part)")
        }
        let explain = await runCache(["explain", String(tracks[0].prefix(8))], database: database, now: Date())
        #expect(explain.status == 0, "\(explain.transcript)")
        for component in ["kind", "operation", "operationName", "variables", "endpoint", "partition"] {
            #expect(explain.stdout.contains("  \(component) "), "explain prints \(component)")
        }
        #expect(explain.stdout.contains("query GetTrack($id:ID!){track(id:$id){"))

        let diff = await runCache(["diff", tracks[0], tracks[1]], database: database, now: Date())
        #expect(diff.status == 0, "\(diff.transcript)")
        #expect(diff.stdout.contains("The keys differ in: variables (id)."), "\(diff.stdout)")
        let diffJSON = await runCache(["diff", tracks[0], tracks[1], "--json"], database: database, now: Date())
        let differences = try #require(try diffJSON.json()["differences"]?.arrayValue)
        #expect(differences.compactMap { $0["component"]?.stringValue } == ["variables"])
        #expect(differences.first?["variables"] == ["id"])
    }

    @Test func theDemoRunsAgainInTheSameFolder() async throws {
        let (folder, first, _) = try await demo()
        try #require(first == 0)
        let (status, sink) = await run(["demo", "--dir", folder.path] + Self.apiFiles)
        #expect(status == 0, "an earlier demo's cache is emptied first:\n\(sink.stdout)")
    }

    @Test func theOutputHasNoColourUnlessATerminalWithoutNO_COLOR() async throws {
        let plain = try await demo()
        let terminal = try await demo(isTerminal: true)
        let noColor = try await demo(environment: ["NO_COLOR": "1"], isTerminal: true)
        #expect([plain.1, terminal.1, noColor.1] == [0, 0, 0])
        #expect(!plain.2.stdout.contains("\u{1B}["))
        #expect(terminal.2.stdout.contains("\u{1B}[32m"))
        #expect(!noColor.2.stdout.contains("\u{1B}["))
    }

    @Test func noTokenOrPasswordIsPrinted() async throws {
        let (_, status, sink) = try await demo()
        try #require(status == 0)
        let output = sink.stdout + sink.stderr
        #expect(output.range(of: "[ar]t-[0-9a-f]{32}", options: .regularExpression) == nil)
        #expect(!output.contains("demo-password"))
    }

    @Test func withoutDirTheDemoUsesANewTemporaryFolderAndFindsTheAPIFilesAbove() async throws {
        let (status, sink) = await run(["demo"], directory: QueryFiles.root.appendingPathComponent("Sources"))
        #expect(status == 0, "\(sink.stdout)\n\(sink.stderr)")
        let line = try #require(sink.stdout.components(separatedBy: "\n").first { $0.hasPrefix("Cache:") })
        let path = line.dropFirst("Cache:".count).trimmingCharacters(in: .whitespaces)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(folder.lastPathComponent.hasPrefix("gateway-demo-"))
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("tokens/credential.json").path))
    }

    @Test func missingAPIFilesAreAClearError() async throws {
        let folder = try CacheTestFolder()
        let (status, sink) = await run(["demo", "--dir", folder.file("d")], directory: URL(fileURLWithPath: "/"))
        #expect(status == 1)
        #expect(sink.stderr.contains("could not find Schemas/music.graphql"))
        #expect(sink.stderr.contains("--schema"))
        let (other, otherSink) = await run(["demo", "--dir", folder.file("d"), "--schema", folder.file("none.graphql")])
        #expect(other == 1)
        #expect(otherSink.stderr.contains("could not read the schema"))
        #expect(sink.stdout.isEmpty && otherSink.stdout.isEmpty)
    }

    @Test func aDirThatIsAFileIsAClearError() async throws {
        let folder = try CacheTestFolder()
        let file = folder.file("plain")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let (status, sink) = await run(["demo", "--dir", file] + Self.apiFiles)
        #expect(status == 1)
        #expect(sink.stderr.contains("is a file, not a folder"))
        #expect(sink.stdout.isEmpty)
    }

    @Test(arguments: [["demo", "extra"], ["demo", "--bogus"], ["demo", "--dir"], ["demo", "--dir", ""],
                      ["demo", "--schema", ""]])
    func badArgumentsAreUsageErrors(arguments: [String]) async {
        let (status, sink) = await run(arguments)
        #expect(status == 2)
        #expect(sink.stderr.contains("gateway help demo"))
        #expect(sink.stdout.isEmpty)
    }

    @Test func helpExplainsTheDemoAndItsOptions() async {
        let verb = await run(["help", "demo"])
        #expect(verb.status == 0)
        #expect(verb.sink.stdout.contains("Usage: gateway demo [--dir PATH] [--schema FILE] [--queries DIR]"))
        #expect(verb.sink.stdout.contains("NO_COLOR"))
        #expect(verb.sink.stdout.contains("Exit status"))
        let overview = await run(["--help"])
        #expect(overview.sink.stdout.contains("demo"))
    }

    @Test func aStepOrRequestThatDoesNotGoAsExpectedFailsTheReport() {
        let ok = DemoScript.StepResult(name: "login", asExpected: true, detail: "")
        let failed = DemoScript.StepResult(name: "fetch Me", asExpected: false, detail: "")
        let row = DemoScript.Row(kind: "GraphQL", name: "Me", status: "200", cache: "hit", attempts: "0",
                                 time: .milliseconds(1), startedAt: .now, asExpected: true)
        var wrong = row
        wrong.asExpected = false
        #expect(DemoReport(results: [ok], rows: [row], refreshes: 1).allAsExpected)
        let report = DemoReport(results: [ok, failed], rows: [row], refreshes: 1)
        #expect(!report.allAsExpected)
        #expect(report.summary == "2 steps, 1 request; not as expected: fetch Me.")
        #expect(report.steps(colour: false).contains("FAIL  fetch Me"))
        #expect(!DemoReport(results: [ok], rows: [wrong], refreshes: 1).allAsExpected)
        let twice = DemoReport(results: [ok], rows: [row], refreshes: 2)
        #expect(!twice.allAsExpected)
        #expect(twice.summary.contains("2 refreshes instead of 1"))
    }

    @Test func theScriptAgainstABrokenBackendReportsEveryStepAsUnexpected() async throws {
        let server = try LoopbackServer { _ in .text("down for maintenance", status: 503) }
        defer { server.shutdown() }
        let backend = try ExampleBackend(schema: try DemoFixture.schema())
        defer { backend.shutdown() }
        let recorder = DemoRecorder()
        let provider = Provider(baseURL: server.baseURL, transport: URLSessionTransport(timeout: .seconds(10))) {
            $0.tokens = MemoryTokenStore()
            $0.observers = [recorder]
            $0.retryPolicy = .none
        }
        let script = DemoScript(provider: provider, backend: backend, recorder: recorder)
        let results = await script.run()
        #expect(results.count == 15)
        #expect(results.allSatisfy { !$0.asExpected }, "\(results.filter(\.asExpected).map(\.name))")
        #expect(script.rows.allSatisfy { !$0.asExpected && ($0.status == "503" || $0.status == "-") })
        #expect(!DemoReport(results: results, rows: script.rows, refreshes: backend.refreshCount).allAsExpected)
    }
}
