import Foundation
import Gateway
import GatewayTestSupport
import GatewayTesting
import Testing
@testable import GatewayCLI

/// `gateway request --output FILE` and `--continue` against the loopback server: the file's
/// bytes, the progress bar (only on a terminal, plain under NO_COLOR), resumption, and the exit
/// statuses. Files are written: the suite runs off the cooperative pool.
@Suite(.offPool) struct RequestOutputTests {
    let files: GraphQLFilesFixture
    static let body = Data((0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })

    init() throws {
        files = try GraphQLFilesFixture()
    }

    private func run(_ arguments: String..., terminal: Bool = false, environment: [String: String] = [:]) async
        -> (status: Int32, sink: CapturedOutput)
    {
        let sink = CapturedOutput()
        let output = sink.output(environment: environment, currentDirectory: files.directory, errorIsTerminal: terminal)
        let status = await Dispatcher.standard.run(arguments, output: output)
        return (status, sink)
    }

    private var saved: Data? { try? Data(contentsOf: files.directory.appendingPathComponent("out.bin")) }

    @Test func theBodyGoesToTheFileAndNothingElseIsPrintedOffATerminal() async throws {
        let server = try LoopbackServer { LoopbackResponse.file(Self.body, for: $0, etag: "\"a\"") }
        defer { server.shutdown() }
        let url = try server.url("/files/a").absoluteString
        let (status, sink) = await run("request", "GET", url, "--output", "out.bin")
        #expect(status == 0, "\(sink.stderr)")
        #expect(saved == Self.body)
        #expect(sink.stdout.isEmpty)
        #expect(sink.stderr.isEmpty)
    }

    @Test func aTerminalGetsAProgressBarThatEndsAtTheTotal() async throws {
        let server = try LoopbackServer { LoopbackResponse.file(Self.body, for: $0, etag: "\"a\"") }
        defer { server.shutdown() }
        let url = try server.url("/files/a").absoluteString
        let coloured = await run("request", "GET", url, "-o", "out.bin", terminal: true)
        let plain = await run("request", "GET", url, "-o", "out.bin", terminal: true, environment: ["NO_COLOR": "1"])
        #expect(coloured.status == 0 && plain.status == 0)
        #expect(plain.sink.stderr.hasSuffix("[##############################] 100%  1.5 MB / 1.5 MB\n"))
        #expect(!plain.sink.stderr.contains("\u{1B}"))
        #expect(coloured.sink.stderr.contains("\u{1B}[32m##############################\u{1B}[0m] 100%"))
        #expect(saved == Self.body)
    }

    @Test func continueResumesThePartialFileAnInterruptedCallLeft() async throws {
        let served = Locked(0)
        let server = try LoopbackServer { request in
            let number = served.withLock { count -> Int in
                count += 1
                return count
            }
            let response = LoopbackResponse.file(Self.body, for: request, etag: "\"a\"")
            return number == 1 ? response.with(fault: .closeMidBody(afterBytes: 600_000)) : response
        }
        defer { server.shutdown() }
        let url = try server.url("/files/a").absoluteString

        let interrupted = await run("request", "GET", url, "--output", "out.bin")
        #expect(interrupted.status == 3)
        #expect(saved == nil)
        let resumed = await run("request", "GET", url, "--output", "out.bin", "--continue")

        #expect(resumed.status == 0, "\(resumed.sink.stderr)")
        #expect(server.requests.last?.headers["Range"]?.hasPrefix("bytes=") == true)
        #expect(server.requests.last?.headers["If-Range"] == "\"a\"")
        #expect(saved == Self.body)
        #expect(try FileManager.default.contentsOfDirectory(atPath: files.directory.path).filter { $0.contains("out") }
                == ["out.bin"])
    }

    @Test func anotherStatusWritesNoFileAndPrintsItsBody() async throws {
        let server = try LoopbackServer { _ in .json(#"{"error":"missing"}"#, status: 404) }
        defer { server.shutdown() }
        let url = try server.url("/files/a").absoluteString
        let (status, sink) = await run("request", "GET", url, "--output", "out.bin")
        #expect(status == 1)
        #expect(sink.stdout == #"{"error":"missing"}"#)
        #expect(sink.stderr.contains("HTTP 404"))
        #expect(saved == nil)
    }

    @Test(arguments: [
        (["--continue"], "give --output too"),
        (["--output", "no-such-folder/out.bin"], "does not exist"),
        (["--output", "."], "is a folder"),
    ])
    func badOutputFlagsAreUsageErrors(flags: [String], message: String) async throws {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(["request", "GET", "http://127.0.0.1:9/x"] + flags,
                                                   output: sink.output(currentDirectory: files.directory))
        #expect(status == 2)
        #expect(sink.stderr.contains(message), "\(sink.stderr)")
    }
}
