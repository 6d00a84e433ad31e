import Foundation
@testable import GatewayCLI
import GatewayTestSupport
import GatewayTesting
import Testing

/// `gateway request` and `gateway query` always have a whole-call deadline, and a server that
/// breaks HTTP is a transport error (exit 3), never the caller's usage error: against loopback
/// servers on 127.0.0.1.
@Suite(.quietScheduler) struct CallDeadlineTests {
    func request(_ arguments: [String]) async -> (status: Int32, sink: CapturedOutput) {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(["request"] + arguments, output: sink.output())
        return (status, sink)
    }

    func query(_ arguments: [String]) async -> (status: Int32, sink: CapturedOutput) {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(["query", QueryFiles.path("Me.graphql")] + arguments,
                                                   output: sink.output())
        return (status, sink)
    }

    @Test func everyCallHasADeadlineOfThirtySecondsUnlessTheFlagsAllowMore() throws {
        #expect(try CallDeadline.resolve(nil, timeout: nil, retries: 0) == .seconds(30))
        #expect(try CallDeadline.resolve(nil, timeout: .seconds(2), retries: 2) == .seconds(30))
        #expect(try CallDeadline.resolve(nil, timeout: .seconds(20), retries: 1) == .seconds(45))
        #expect(try CallDeadline.resolve(1.5, timeout: .seconds(20), retries: 1) == .milliseconds(1_500))
        #expect(throws: UsageError.self) { try CallDeadline.resolve(0, timeout: nil, retries: 0) }
    }

    @Test func aBodyTricklingInEndsAtTheDeadlineWithExitThree() async throws {
        // One byte every 100 ms keeps the idle timeout from ever passing.
        let server = try LoopbackServer { _ in
            LoopbackResponse(body: Data(count: 1_000), fault: .throttleBody(chunk: 1, every: .milliseconds(100)))
        }
        defer { server.shutdown() }

        let (status, sink) = await request(["GET", "\(server.baseURL)slow", "--deadline", "1"])

        #expect(status == 3)
        #expect(sink.stderr.contains("the call's deadline of 1 s passed"), "\(sink.stderr)")
        #expect(sink.stdout.isEmpty)
    }

    @Test func aQueryTricklingInEndsAtTheDeadlineWithExitThree() async throws {
        let server = try LoopbackServer { _ in
            LoopbackResponse(body: Data(count: 1_000), fault: .throttleBody(chunk: 1, every: .milliseconds(100)))
        }
        defer { server.shutdown() }

        let (status, sink) = await query(["--endpoint", "\(server.baseURL)graphql", "--deadline", "1"])

        #expect(status == 3)
        #expect(sink.stderr.contains("the call's deadline of 1 s passed"), "\(sink.stderr)")
    }

    @Test func aMalformedReplyExitsThreeNotTwo() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .raw(Data("hello world\n".utf8))) }
        defer { server.shutdown() }

        let rest = await request(["GET", "\(server.baseURL)hostile"])
        let graphQL = await query(["--endpoint", "\(server.baseURL)graphql"])

        #expect(rest.status == 3)
        #expect(rest.sink.stderr.contains("is not valid HTTP"), "\(rest.sink.stderr)")
        #expect(!rest.sink.stderr.contains("absolute http or https URL"))
        #expect(graphQL.status == 3)
        #expect(graphQL.sink.stderr.contains("is not valid HTTP"), "\(graphQL.sink.stderr)")
    }

    @Test func aContentLengthThatIsNotALengthExitsThree() async throws {
        let reply = "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999999\r\n\r\nhi"
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .raw(Data(reply.utf8))) }
        defer { server.shutdown() }

        let (status, sink) = await request(["GET", "\(server.baseURL)length"])

        #expect(status == 3)
        #expect(sink.stderr.contains("is not a valid length"), "\(sink.stderr)")
    }

    @Test func invalidUTF8InAGraphQLResponseIsAnErrorNamingItsOffset() async throws {
        let body = Data(#"{"data":{"me":"x"#.utf8) + Data([0xFF, 0xFE]) + Data(#"y"}}"#.utf8)
        let server = try LoopbackServer { _ in .data(body, contentType: "application/json") }
        defer { server.shutdown() }

        let (status, sink) = await query(["--endpoint", "\(server.baseURL)graphql"])

        #expect(status == 1)
        #expect(sink.stderr.contains("invalid UTF-8 in a string at byte offset 16"), "\(sink.stderr)")
    }

    @Test func helpNamesTheDeadline() async {
        for verb in ["request", "query"] {
            let sink = CapturedOutput()
            _ = await Dispatcher.standard.run(["help", verb], output: sink.output())
            #expect(sink.stdout.contains("--deadline SECONDS"), "\(verb)")
            #expect(sink.stdout.contains("Default: 30"), "\(verb)")
        }
    }
}
