import Foundation
import Testing
@testable import Gateway
import GatewayTesting

/// How the real `URLSessionTransport` ends calls when the server misbehaves or a limit passes:
/// always with a clear error, never with a short success or a hang.
@Suite(.quietScheduler) struct URLSessionTransportFaultTests {
    let transport = URLSessionTransport()

    @Test(arguments: [false, true])
    func aBodyCutOffMidwayIsAnErrorNeverASuccess(chunked: Bool) async throws {
        let server = try LoopbackServer { _ in
            LoopbackResponse(body: TransportTesting.bytes(200_000), chunked: chunked, fault: .closeMidBody(afterBytes: 50_000))
        }
        defer { server.shutdown() }
        let error = await #expect(throws: GatewayError.self) {
            try await transport.send(try TransportTesting.request(server, "/cut"))
        }
        #expect(error?.kind == .transport)
        #expect(error?.description.contains("connection lost") == true, "\(String(describing: error))")
    }

    @Test func aStalledServerEndsInATimeoutInsideTheDeadline() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .stall) }
        defer { server.shutdown() }
        let started = ContinuousClock.now
        let deadline = started + .seconds(10)
        let error = await #expect(throws: GatewayError.self) {
            try await transport.send(try TransportTesting.request(server, "/stall", timeout: .milliseconds(500), deadline: deadline))
        }
        #expect(ContinuousClock.now < deadline)
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("per-request timeout") == true)
        #expect(error?.fix?.contains("timeout") == true)
    }

    @Test func aStallAfterPartOfTheBodyEndsInATimeout() async throws {
        let server = try LoopbackServer { _ in
            LoopbackResponse(body: Data(count: 10_000), fault: .throttleBody(chunk: 1_000, every: .seconds(60)))
        }
        defer { server.shutdown() }
        let error = await #expect(throws: GatewayError.self) {
            try await transport.send(try TransportTesting.request(
                server, "/slow", timeout: .milliseconds(500), deadline: .now + .seconds(10)))
        }
        #expect(error?.kind == .timeout)
    }

    @Test func aShortTimeoutPassesOnTimeWhileALongerOneIsWatched() async throws {
        // The long call registers first, so the short one must bring the watchdog's wake-up forward.
        let longArrived = Gate()
        let server = try LoopbackServer { request in
            if request.path == "/long" { longArrived.open() }
            return LoopbackResponse(fault: .stall)
        }
        defer { server.shutdown() }
        let long = Task { try await transport.send(try TransportTesting.request(server, "/long", timeout: .seconds(120))) }
        try await longArrived.wait()
        let started = ContinuousClock.now
        let error = await #expect(throws: GatewayError.self) {
            try await transport.send(try TransportTesting.request(server, "/short", timeout: .milliseconds(500)))
        }
        #expect(error?.kind == .timeout)
        #expect(ContinuousClock.now - started < .seconds(60))
        long.cancel()
        await #expect(throws: CancellationError.self) { try await long.value }
    }

    @Test func theTimeoutIsAnIdleTimeoutNotALimitOnTheWholeTransfer() async throws {
        // 60 pieces 100 ms apart take about 6 s in all, longer than the 4 s timeout, but
        // there are never four seconds without data (a wide margin for a loaded machine).
        let payload = TransportTesting.bytes(6_000, seed: 5)
        let server = try LoopbackServer { _ in .data(payload).with(fault: .throttleBody(chunk: 100, every: .milliseconds(100))) }
        defer { server.shutdown() }
        let response = try await transport.send(try TransportTesting.request(server, "/trickle", timeout: .seconds(4)))
        #expect(response.body == payload)
    }

    @Test func aDeadlineShorterThanDelayedHeadersEndsInATimeout() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse.text("late").with(fault: .delayHeaders(.seconds(30))) }
        defer { server.shutdown() }
        let started = ContinuousClock.now
        let error = await #expect(throws: GatewayError.self) {
            try await transport.send(try TransportTesting.request(
                server, "/late", timeout: .seconds(60), deadline: started + .milliseconds(500)))
        }
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("deadline") == true)
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func aDeadlineAlreadyPastFailsBeforeSending() async throws {
        let server = try LoopbackServer { _ in .text("never") }
        defer { server.shutdown() }
        let error = await #expect(throws: GatewayError.self) {
            try await transport.send(try TransportTesting.request(server, "/", deadline: .now - .seconds(1)))
        }
        #expect(error?.kind == .timeout)
        #expect(server.requests.isEmpty)
    }

    @Test(arguments: [false, true])
    func anOversizedBodyEndsInResponseTooLargeWithoutHoldingIt(chunked: Bool) async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(body: Data(count: 5 * 1024 * 1024), chunked: chunked) }
        defer { server.shutdown() }
        let error = await #expect(throws: GatewayError.self) {
            try await transport.send(try TransportTesting.request(server, "/big", maxResponseBytes: 64 * 1024))
        }
        #expect(error?.kind == .responseTooLarge)
        #expect(error?.message.contains("65536") == true)
        #expect(error?.fix?.contains("maxResponseBytes") == true)
        #expect(error?.response == nil)
    }

    @Test func aBodyExactlyAtTheLimitIsAccepted() async throws {
        let payload = TransportTesting.bytes(64 * 1024)
        let server = try LoopbackServer { _ in LoopbackResponse(body: payload, chunked: true) }
        defer { server.shutdown() }
        let response = try await transport.send(try TransportTesting.request(server, "/", maxResponseBytes: payload.count))
        #expect(response.body == payload)
    }

    @Test func aResetConnectionIsATransportError() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .resetConnection) }
        defer { server.shutdown() }
        let error = await #expect(throws: GatewayError.self) {
            try await transport.send(try TransportTesting.request(server, "/reset"))
        }
        #expect(error?.kind == .transport)
        #expect(error?.underlying != nil)
    }

    @Test func aClosedPortIsATransportErrorThatSaysWhere() async throws {
        let server = try LoopbackServer { _ in .text("unused") }
        let request = try TransportTesting.request(server, "/")
        server.shutdown()
        let error = await #expect(throws: GatewayError.self) { try await transport.send(request) }
        #expect(error?.kind == .transport)
        #expect(error?.message.contains("127.0.0.1:\(server.port)") == true)
        #expect(error?.underlying is URLError)
    }

    @Test func cancellingTheTaskCancelsTheRequestPromptly() async throws {
        let arrived = LoopbackGate()
        let server = try LoopbackServer { _ in
            arrived.open()
            return LoopbackResponse(fault: .stall)
        }
        defer { server.shutdown() }
        let request = try TransportTesting.request(server, "/wait", timeout: .seconds(60))
        let transport = self.transport
        let call = Task { try await transport.send(request) }
        await arrived.wait()
        call.cancel()
        let result = await call.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test func aTaskCancelledBeforeSendingNeverReachesTheServer() async throws {
        let server = try LoopbackServer { _ in .text("should not run") }
        defer { server.shutdown() }
        let request = try TransportTesting.request(server, "/")
        let transport = self.transport
        let start = LoopbackGate()
        let call = Task {
            await start.wait()
            return try await transport.send(request)
        }
        call.cancel()
        start.open()
        let result = await call.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(server.requests.isEmpty)
    }

    @Test(arguments: [
        ("GET with a body", HTTPMethod.get, HTTPHeaders(), Data("x".utf8)),
        ("a line break in a header", HTTPMethod.post, HTTPHeaders([.init(name: "X-Evil", value: "a\r\nInjected: yes")]), Data()),
    ])
    func requestsHTTPCannotCarryAreRefusedBeforeSending(name: String, method: HTTPMethod, headers: HTTPHeaders, body: Data) async throws {
        let server = try LoopbackServer { _ in .text("should not run") }
        defer { server.shutdown() }
        let error = await #expect(throws: GatewayError.self, "\(name)") {
            try await transport.send(try TransportTesting.request(server, "/", method: method, headers: headers, body: .data(body)))
        }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.fix != nil)
        #expect(server.requests.isEmpty)
    }

    @Test func aMissingBodyFileIsAnInvalidRequest() async throws {
        let server = try LoopbackServer { _ in .text("should not run") }
        defer { server.shutdown() }
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-missing-\(UUID().uuidString)")
        let error = await #expect(throws: GatewayError.self) {
            try await transport.send(try TransportTesting.request(
                server, "/", method: .post, body: .file(missing, length: 10, removeAfterSending: false)))
        }
        #expect(error?.kind == .invalidRequest)
    }

    @Test func errorDescriptionsNeverShowTokens() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .resetConnection) }
        defer { server.shutdown() }
        let error = await #expect(throws: GatewayError.self) {
            try await transport.send(try TransportTesting.request(
                server, "/x?access_token=query-secret", headers: ["Authorization": "Bearer header-secret"]))
        }
        let text = try #require(error).description
        #expect(!text.contains("query-secret"))
        #expect(!text.contains("header-secret"))
    }
}
