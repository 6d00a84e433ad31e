import Foundation
import Gateway
import GatewayTesting
import Testing
@testable import GatewayCLI

/// `gateway request --priority --retries --verbose` against a loopback server.
@Suite struct RequestQueueFlagsTests {
    static let token = "cliTok3n9x8y7z"

    func run(_ arguments: [String]) async -> (status: Int32, sink: CapturedOutput) {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(["request"] + arguments, output: sink.output())
        return (status, sink)
    }

    @Test func verbosePrintsTheRedactedCURLLineAndTheMetricsToStandardError() async throws {
        let server = try LoopbackServer { request in
            .json(#"{"ok": true}"#, headers: ["Set-Cookie": "session=\(Self.token)"])
        }
        defer { server.shutdown() }
        let (status, sink) = await run([
            "POST", try server.url("/login?access_token=\(Self.token)").absoluteString, "--verbose",
            "--bearer", Self.token, "--header", "Cookie: id=\(Self.token)",
            "--json", #"{"user": "ada", "password": "\#(Self.token)"}"#, "--priority", "high",
        ])
        #expect(status == 0, "stderr: \(sink.stderr)")
        #expect(sink.stdout == #"{"ok": true}"#)
        let log = sink.stderr
        #expect(log.contains("curl -X POST 'http://127.0.0.1:\(server.port)/login?access_token=<redacted>'"))
        #expect(log.contains("-H 'Authorization: <redacted>'"))
        #expect(log.contains("-H 'Cookie: <redacted>'"))
        #expect(log.contains(#"--data-binary '{"user":"ada","password":"<redacted>"}'"#))
        #expect(log.contains("# < Set-Cookie: <redacted>"))
        #expect(log.contains("metrics: total"))
        #expect(!log.contains(Self.token))
        #expect(server.requests.first?.headers["Authorization"] == "Bearer \(Self.token)")
    }

    @Test func retriesSendAnIdempotentRequestAgainAfterA503() async throws {
        let served = Locked(0)
        let server = try LoopbackServer { _ in
            let count = served.withLock { count -> Int in
                count += 1
                return count
            }
            return count == 1 ? LoopbackResponse.status(503) : .text("fine")
        }
        defer { server.shutdown() }
        let (status, sink) = await run(["GET", try server.url("/flaky").absoluteString, "--retries", "1"])
        #expect(status == 0, "stderr: \(sink.stderr)")
        #expect(sink.stdout == "fine")
        #expect(server.requests.count == 2)
    }

    @Test func withoutRetriesA503IsAnsweredOnce() async throws {
        let server = try LoopbackServer { _ in .status(503) }
        defer { server.shutdown() }
        let (status, sink) = await run(["GET", try server.url("/busy").absoluteString])
        #expect(status == 1)
        #expect(sink.stderr.contains("503"))
        #expect(server.requests.count == 1)
    }

    @Test(arguments: [
        (["--priority", "urgent"], "--priority must be one of low, medium, high, veryHigh, blocker"),
        (["--retries", "9"], "--retries 9 is too many"),
        (["--retries", "two"], "--retries takes a whole number"),
        (["--retries", "-1"], "--retries takes a whole number"),
    ])
    func badQueueFlagsAreUsageErrors(flags: [String], message: String) async {
        let (status, sink) = await run(["GET", "http://127.0.0.1:9/"] + flags)
        #expect(status == 2)
        #expect(sink.stderr.contains(message), "stderr: \(sink.stderr)")
    }

    @Test func theOptionsParseIntoTheEndpointAndPolicy() throws {
        var arguments = Arguments(["GET", "http://127.0.0.1:9/x", "--priority", "veryHigh", "--retries", "3", "-v"])
        let options = try RequestOptions(parsing: &arguments, output: CapturedOutput().output())
        #expect(options.endpoint.priority == .veryHigh)
        #expect(options.retries == 3)
        #expect(options.verbose)
    }

    @Test func helpExplainsTheQueueFlags() async {
        let sink = CapturedOutput()
        _ = await Dispatcher.standard.run(["help", "request"], output: sink.output())
        for flag in ["--priority", "--retries", "--verbose"] { #expect(sink.stdout.contains(flag)) }
    }
}
