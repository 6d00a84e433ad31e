import Foundation
import Testing
import GatewayTestSupport
import GraphQLLanguage
@testable import GatewayCLI

/// `gateway request` against httpbin, a third-party HTTP server run by python3 on 127.0.0.1, one
/// for all the tests. Skipped, saying so, where httpbin is not installed (`.ci/run` installs it,
/// and there a missing httpbin fails). Some tests write files to upload: the suite runs off the
/// cooperative pool.
@Suite(.serialized, .offPool, .requires(.httpbin) { try await PythonPeer.httpbin() != nil })
struct RequestCommandTests {
    let peer: PythonPeer?

    init() async throws { peer = try await PythonPeer.httpbin() }

    func run(_ arguments: [String], directory: URL? = nil) async -> (status: Int32, sink: CapturedOutput) {
        let sink = CapturedOutput()
        let output = directory.map { sink.output(currentDirectory: $0) } ?? sink.output()
        let status = await Dispatcher.standard.run(["request"] + arguments, output: output)
        return (status, sink)
    }

    func echo(_ arguments: [String]) async throws -> JSONValue {
        let (status, sink) = await run(arguments)
        #expect(status == 0, "stderr: \(sink.stderr)")
        return try JSONValue(parsing: sink.stdout)
    }

    @Test func sendsExactlyTheQueryItemsAndHeadersAskedFor() async throws {
        let peer = try #require(peer, "httpbin started for the suite's condition")
        let echo = try await echo([
            "GET", "\(peer.baseURL)/anything?fixed=1", "--query", "q=a b&c", "--query", "list=1", "--query", "list=2",
            "--header", "X-Trace: on", "--header", "X-Empty:", "--bearer", "s3cret",
        ])
        #expect(echo["method"] == "GET")
        #expect(echo["args"] == ["fixed": "1", "q": "a b&c", "list": ["1", "2"]])
        #expect(echo["headers"]?["X-Trace"] == "on")
        #expect(echo["headers"]?["Authorization"] == "Bearer s3cret")
        #expect(echo["data"] == "")
    }

    @Test func sendsTheJSONTextByteForByte() async throws {
        let peer = try #require(peer, "httpbin started for the suite's condition")
        let text = #"{"z": [1, 2.50, "é"], "a": null}"#
        let echo = try await echo(["POST", "\(peer.baseURL)/anything", "--json", text])
        #expect(echo["data"] == .string(text))
        #expect(echo["headers"]?["Content-Type"] == "application/json")
        #expect(echo["json"]?["z"]?[2] == "é")
    }

    @Test func sendsAFormBody() async throws {
        let peer = try #require(peer, "httpbin started for the suite's condition")
        let echo = try await echo(["PUT", "\(peer.baseURL)/anything", "--form", "name=Ada Lovelace", "--form", "sym=&=+"])
        #expect(echo["method"] == "PUT")
        #expect(echo["form"] == ["name": "Ada Lovelace", "sym": "&=+"])
        #expect(echo["headers"]?["Content-Type"]?.stringValue?.hasPrefix("application/x-www-form-urlencoded") == true)
    }

    @Test func sendsAMultipartBodyWithAFilePartByteForByte() async throws {
        let peer = try #require(peer, "httpbin started for the suite's condition")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-request-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let contents = String(repeating: "line of text ✓\n", count: 500)
        try Data(contents.utf8).write(to: directory.appendingPathComponent("notes.txt"))
        let (status, sink) = await run(
            ["POST", "\(peer.baseURL)/anything", "--multipart", "title=Notes", "--file", "doc=@notes.txt"],
            directory: directory)
        #expect(status == 0, "stderr: \(sink.stderr)")
        let echo = try JSONValue(parsing: sink.stdout)
        #expect(echo["form"] == ["title": "Notes"])
        #expect(echo["files"]?["doc"] == .string(contents))
        #expect(echo["headers"]?["Content-Type"]?.stringValue?.hasPrefix("multipart/form-data; boundary=") == true)
    }

    @Test func includePrintsTheStatusLineAndHeadersBeforeTheBody() async throws {
        let peer = try #require(peer, "httpbin started for the suite's condition")
        let (status, sink) = await run(["GET", "\(peer.baseURL)/json", "--include"])
        #expect(status == 0)
        #expect(sink.stdout.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(sink.stdout.contains("\r\n\r\n{"))
    }

    @Test(arguments: [404, 500, 301])
    func anyStatusOutside2xxExitsOneWithASummary(code: Int) async throws {
        let peer = try #require(peer, "httpbin started for the suite's condition")
        let url = code == 301 ? "\(peer.baseURL)/redirect-to?url=/status/404&status_code=301" : "\(peer.baseURL)/status/\(code)"
        let (status, sink) = await run(["GET", url])
        #expect(status == 1)
        #expect(sink.stderr.hasPrefix("gateway request: HTTP \(code == 301 ? 404 : code)"))
        #expect(sink.stderr.split(separator: "\n").count == 1)
    }

    @Test func aTimeoutExitsThree() async throws {
        let peer = try #require(peer, "httpbin started for the suite's condition")
        let (status, sink) = await run(["GET", "\(peer.baseURL)/delay/5", "--timeout", "0.5"])
        #expect(status == 3)
        #expect(sink.stderr.contains("timeout"))
    }
}

@Suite struct RequestCommandUsageTests {
    func run(_ arguments: [String]) async -> (status: Int32, sink: CapturedOutput) {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(["request"] + arguments, output: sink.output())
        return (status, sink)
    }

    @Test(arguments: [
        [], ["GET"], ["GET", "not a url"], ["GET", "ftp://127.0.0.1/"], ["G@T", "http://127.0.0.1/"],
        ["POST", "http://127.0.0.1/", "--json", "{bad"], ["GET", "http://127.0.0.1/", "--query", "novalue"],
        ["GET", "http://127.0.0.1/", "--header", "NoColon"], ["GET", "http://127.0.0.1/", "--timeout", "soon"],
        ["POST", "http://127.0.0.1/", "--json", "{}", "--form", "a=1"],
        ["POST", "http://127.0.0.1/", "--file", "a=@/nonexistent/file"], ["GET", "http://127.0.0.1/", "--bogus"],
    ])
    func usageErrorsExitTwo(arguments: [String]) async {
        let (status, sink) = await run(arguments)
        #expect(status == 2)
        #expect(sink.stderr.contains("gateway request:"))
        #expect(sink.stdout.isEmpty)
    }

    @Test func aRefusedConnectionExitsThree() async throws {
        // Port 9 (discard) on loopback has no listener here; the connection is refused at once.
        let (status, sink) = await run(["GET", "http://127.0.0.1:9/"])
        #expect(status == 3)
        #expect(sink.stderr.contains("transport"))
    }

    @Test func helpExplainsEveryFlag() async {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(["help", "request"], output: sink.output())
        #expect(status == 0)
        for flag in ["--query", "--header", "--json", "--form", "--multipart", "--file", "--bearer", "--include", "--timeout"] {
            #expect(sink.stdout.contains(flag), "help lacks \(flag)")
        }
    }
}
