import Foundation
import Gateway
import GatewayTesting
import Testing
@testable import GatewayCLI

/// `gateway demo` through the dispatcher, as a person runs it. The demo writes its token file and
/// SQLite cache: the suite runs off the cooperative pool.
@Suite(.offPool, .quietScheduler) struct DemoCommandTests {
    /// Every request of the script: name, method and path as sent, status.
    static let rows: [(name: String, request: String, status: String)] = [
        ("login", "POST /auth/login", "200"),
        ("track 1", "GET /tracks/1", "200"),
        ("track 4", "GET /tracks/4", "200"),
        ("search", "GET /search?kinds%5B%5D=track&kinds%5B%5D=release&q=blue%20hour", "200"),
        ("missing track", "GET /tracks/999", "404"),
        ("stream, no token", "GET /tracks/1/stream", "401"),
        ("stream URL", "GET /tracks/1/stream", "200"),
        ("refresh", "POST /auth/refresh", "200"),
        ("stream URL again", "GET /tracks/6/stream", "200"),
    ]

    private func run(_ arguments: [String], environment: [String: String] = [:], isTerminal: Bool = false,
                     directory: URL? = nil) async -> (status: Int32, sink: CapturedOutput) {
        let sink = CapturedOutput()
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let output = sink.output(environment: environment, isTerminal: isTerminal, currentDirectory: directory ?? here)
        let status = await Dispatcher.standard.run(arguments, output: output)
        return (status, sink)
    }

    @Test func theDemoRunsTheScriptAndExitsZeroWithEveryRowInTheTable() async throws {
        let (status, sink) = await run(["demo"])
        #expect(status == 0, "stdout:\n\(sink.stdout)\nstderr:\n\(sink.stderr)")
        #expect(sink.stderr.isEmpty)
        let lines = sink.stdout.components(separatedBy: "\n")
        let header = try #require(lines.first { $0.hasPrefix("KIND") })
        for title in ["NAME", "REQUEST", "STATUS", "OUTCOME", "ATTEMPTS", "TIME"] {
            #expect(header.contains(title))
        }
        let tableRows = lines.filter { $0.hasPrefix("REST  ") }
        #expect(tableRows.count == Self.rows.count)
        for (row, expected) in zip(tableRows, Self.rows) {
            let cells = row.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            #expect(cells.count == 7, "\(row)")
            guard cells.count == 7 else { continue }
            #expect(cells[1] == expected.name)
            #expect(cells[2] == expected.request)
            #expect(cells[3] == expected.status)
            #expect(!cells[4].hasPrefix("UNEXPECTED"))
            #expect(cells[5] == "1")
            #expect(cells[6].hasSuffix(" ms"))
        }
        #expect(sink.stdout.contains("not_found (expected)"))
        #expect(sink.stdout.contains("unauthorized (expected)"))
        #expect(sink.stdout.contains("\(Self.rows.count) requests, all as expected."))
        #expect(!sink.stdout.contains("FAIL"))
    }

    @Test func theTableColumnsLineUp() async throws {
        let (status, sink) = await run(["demo"])
        try #require(status == 0)
        let lines = sink.stdout.components(separatedBy: "\n")
        let header = try #require(lines.first { $0.hasPrefix("KIND") })
        let rows = lines.filter { $0.hasPrefix("REST  ") }
        for title in ["NAME", "REQUEST", "STATUS", "OUTCOME"] {
            let column = try #require(header.range(of: title)).lowerBound.utf16Offset(in: header)
            for row in rows {
                let index = row.index(row.startIndex, offsetBy: column)
                #expect(row[row.index(before: index)] == " ", "\(title) starts a column in: \(row)")
                #expect(row[index] != " ", "\(title) starts a column in: \(row)")
            }
        }
        let width = header.count
        #expect(rows.allSatisfy { $0.count == width }, "the right-aligned TIME column ends every row together")
    }

    @Test func theOutputHasNoColourUnlessATerminalWithoutNO_COLOR() async throws {
        let plain = await run(["demo"])
        let terminal = await run(["demo"], isTerminal: true)
        let noColor = await run(["demo"], environment: ["NO_COLOR": "1"], isTerminal: true)
        #expect([plain.status, terminal.status, noColor.status] == [0, 0, 0])
        #expect(!plain.sink.stdout.contains("\u{1B}["))
        #expect(terminal.sink.stdout.contains("\u{1B}[32m"))
        #expect(!noColor.sink.stdout.contains("\u{1B}["))
    }

    @Test func noTokenIsPrinted() async throws {
        let (status, sink) = await run(["demo"])
        try #require(status == 0)
        let output = sink.stdout + sink.stderr
        #expect(output.range(of: "[ar]t-[0-9a-f]{32}", options: .regularExpression) == nil)
        #expect(!output.contains("demo-password"))
    }

    @Test func dirCreatesTheFolder() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let (status, sink) = await run(["demo", "--dir", "state/demo"], directory: root)
        #expect(status == 0, "\(sink.stderr)")
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("state/demo").path,
                                               isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
        #expect(sink.stdout.contains("state/demo"))
    }

    @Test func aDirThatIsAFileIsAClearError() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("x".utf8).write(to: file)
        let (status, sink) = await run(["demo", "--dir", file.path])
        #expect(status == 1)
        #expect(sink.stderr.contains("is a file, not a folder"))
        #expect(sink.stdout.isEmpty)
    }

    @Test(arguments: [["demo", "extra"], ["demo", "--bogus"], ["demo", "--dir"], ["demo", "--dir", ""]])
    func badArgumentsAreUsageErrors(arguments: [String]) async {
        let (status, sink) = await run(arguments)
        #expect(status == 2)
        #expect(sink.stderr.contains("gateway help demo"))
        #expect(sink.stdout.isEmpty)
    }

    @Test func helpExplainsTheDemoAndItsOptions() async {
        let verb = await run(["help", "demo"])
        #expect(verb.status == 0)
        #expect(verb.sink.stdout.contains("Usage: gateway demo [--dir PATH]"))
        #expect(verb.sink.stdout.contains("NO_COLOR"))
        #expect(verb.sink.stdout.contains("Exit status"))
        let overview = await run(["--help"])
        #expect(overview.sink.stdout.contains("demo"))
    }

    @Test func aStepThatDoesNotGoAsExpectedFailsTheReport() {
        let results = [
            DemoScript.StepResult(name: "login", asExpected: true, outcome: "ok", detail: ""),
            DemoScript.StepResult(name: "missing track", asExpected: false, outcome: "status error", detail: ""),
        ]
        var records = [DemoRecorder.Record(id: RequestID(1), name: "login"),
                       DemoRecorder.Record(id: RequestID(2), name: "missing track")]
        records[0].outcome = .cancelled
        records[1].outcome = .cancelled
        let report = DemoReport(results: results, records: records)
        #expect(!report.allAsExpected)
        #expect(report.summary == "1 of 2 requests did not go as expected: missing track.")
        #expect(report.table(colour: false).contains("UNEXPECTED: status error"))
        #expect(report.steps(colour: false).contains("FAIL  missing track"))
        let unrecorded = DemoReport(results: Array(results.prefix(1)), records: [])
        #expect(!unrecorded.allAsExpected)
    }

    @Test func theScriptAgainstABrokenBackendReportsEveryStepAsUnexpected() async throws {
        let server = try LoopbackServer { _ in .text("down for maintenance", status: 503) }
        defer { server.shutdown() }
        let recorder = DemoRecorder()
        let results = await DemoScript(baseURL: server.baseURL, recorder: recorder).run()
        #expect(results.count == Self.rows.count)
        #expect(results.allSatisfy { !$0.asExpected })
        #expect(recorder.records.allSatisfy { $0.status == 503 || $0.status == nil })
        #expect(!DemoReport(results: results, records: recorder.records).allAsExpected)
    }
}

/// The example backend's REST side, through a `Provider` and the real transport.
@Suite(.quietScheduler) final class ExampleBackendTests {
    let backend: ExampleBackend
    let provider: Provider

    init() throws {
        backend = try ExampleBackend(tokenLifetime: .seconds(3600))
        provider = Provider(baseURL: backend.baseURL, transport: URLSessionTransport(timeout: .seconds(10))) { config in
            config.jsonEncoding = JSONEncodingOptions(keys: .convertToSnakeCase)
            config.jsonDecoding = JSONDecodingOptions(keys: .convertFromSnakeCase)
            config.deadline = .seconds(20)
        }
    }

    deinit { backend.shutdown() }

    /// The API error code and status of a call that must fail.
    private func failure<Value>(_ endpoint: Endpoint<Value>) async throws -> (status: Int?, code: String?) {
        let error = try await #require(throws: GatewayError.self) {
            try await provider.send(endpoint.apiError(ExampleAPI.ErrorBody.self))
        }
        return (error.status, error.apiError(as: ExampleAPI.ErrorBody.self)?.error.code)
    }

    private func login() async throws -> ExampleAPI.Session {
        try await provider.value(Endpoint<ExampleAPI.Session>.post(
            "auth/login", body: ExampleAPI.Login(username: ExampleBackend.username, password: ExampleBackend.password)))
    }

    @Test func loginAnswersTheSessionInSnakeCase() async throws {
        let response = try await provider.send(Endpoint<Data>.post(
            "auth/login", body: ExampleAPI.Login(username: ExampleBackend.username, password: ExampleBackend.password)))
        let object = try #require(try JSONSerialization.jsonObject(with: response.value) as? [String: Any])
        #expect(Set(object.keys) == ["access_token", "refresh_token", "expires_in", "subject"])
        #expect(object["expires_in"] as? Int == 3600)
        #expect(object["subject"] as? String == ExampleBackend.subject)
        #expect(backend.requests.first?.text.contains(#""username":"demo""#) == true)
    }

    @Test func aWrongPasswordOrABadBodyIsRefused() async throws {
        #expect(try await failure(Endpoint<ExampleAPI.Session>.post(
            "auth/login", body: ExampleAPI.Login(username: "demo", password: "nope"))) == (401, "invalid_credentials"))
        #expect(try await failure(Endpoint<ExampleAPI.Session>.post(
            "auth/login", body: "not json", encoder: .raw(contentType: "text/plain"))) == (400, "bad_request"))
    }

    @Test func aRefreshTokenIsAcceptedExactlyOnce() async throws {
        let session = try await login()
        let refresh = Endpoint<ExampleAPI.Session>.post(
            "auth/refresh", body: ExampleAPI.Refresh(refreshToken: session.refreshToken))
        let renewed = try await provider.value(refresh)
        #expect(renewed.accessToken != session.accessToken)
        #expect(renewed.refreshToken != session.refreshToken)
        #expect(try await failure(refresh) == (401, "invalid_grant"))
        #expect(backend.refreshCount == 1)
    }

    @Test func aTrackIsServedAndAnUnknownOneIsA404WithTheAPIErrorBody() async throws {
        let track = try await provider.value(Endpoint<ExampleAPI.Track>.get("tracks/6"))
        #expect(track.title == "Signal")
        #expect(track.artists.map(\.name) == ["Northbound Static", "The Lumens"])
        #expect(track.release.kind == "SINGLE")
        #expect(try await failure(Endpoint<ExampleAPI.Track>.get("tracks/999")) == (404, "not_found"))
        #expect(try await failure(Endpoint<ExampleAPI.Track>.get("tracks/1/lyrics")) == (404, "not_found"))
        #expect(try await failure(Endpoint<ExampleAPI.Track>.get("albums")) == (404, "not_found"))
    }

    @Test func theStreamURLNeedsALiveBearerToken() async throws {
        let stream = Endpoint<ExampleAPI.StreamLink>.get("tracks/1/stream")
        #expect(try await failure(stream) == (401, "unauthorized"))
        #expect(try await failure(stream.header("Authorization", "Bearer made-up")) == (401, "invalid_token"))
        let session = try await login()
        let link = try await provider.value(stream.header("Authorization", "Bearer \(session.accessToken)"))
        #expect(link.url.hasPrefix(backend.baseURL.absoluteString + "media/1.m4a"))
        #expect(link.expiresIn == 300)
    }

    @Test func anExpiredAccessTokenIsRefused() async throws {
        let shortLived = try ExampleBackend(tokenLifetime: .zero)
        defer { shortLived.shutdown() }
        let provider = Provider(baseURL: shortLived.baseURL, transport: URLSessionTransport(timeout: .seconds(10))) {
            $0.jsonDecoding = JSONDecodingOptions(keys: .convertFromSnakeCase)
        }
        let session = try await provider.value(Endpoint<ExampleAPI.Session>.post(
            "auth/login", body: ExampleAPI.Login(username: ExampleBackend.username, password: ExampleBackend.password)))
        let error = try await #require(throws: GatewayError.self) {
            try await provider.send(Endpoint<ExampleAPI.StreamLink>.get("tracks/1/stream")
                .header("Authorization", "Bearer \(session.accessToken)").apiError(ExampleAPI.ErrorBody.self))
        }
        #expect(error.status == 401)
        #expect(error.apiError(as: ExampleAPI.ErrorBody.self)?.error.code == "token_expired")
        #expect(error.response?.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
    }

    @Test func searchFiltersByTextAndKinds() async throws {
        let all = try await provider.value(Endpoint<ExampleAPI.SearchResults>.get(
            "search", parameters: ["q": "LIGHT"]))
        #expect(all.results.map(\.name) == ["Streetlight Hymn", "Lights Out", "Night Lights"])
        let releases = try await provider.value(Endpoint<ExampleAPI.SearchResults>.get(
            "search", parameters: ExampleAPI.SearchQuery(q: "light", kinds: ["release"])))
        #expect(releases.results.map(\.kind) == ["release"])
        let repeated = try await provider.value(Endpoint<ExampleAPI.SearchResults>.get(
            "search", parameters: ExampleAPI.SearchQuery(q: "a", kinds: ["artist"]),
            encoder: .query(arrays: .repeated)))
        #expect(repeated.results.map(\.name) == ["Mara Quell", "Northbound Static"])
        #expect(backend.requests.last?.rawQuery == "kinds=artist&q=a")
        #expect(try await failure(Endpoint<ExampleAPI.SearchResults>.get("search")) == (400, "missing_query"))
        #expect(try await failure(Endpoint<ExampleAPI.SearchResults>.get(
            "search", parameters: ExampleAPI.SearchQuery(q: "a", kinds: ["podcast"]))) == (400, "invalid_kind"))
    }
}
