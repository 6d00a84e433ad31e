import Foundation
import Testing
import GatewayTestSupport
import GatewayTesting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starting, shutting down and releasing the loopback server, and its faults on the wire.
@Suite(.offPool, .quietScheduler) struct LoopbackServerLifecycleTests {
    @Test func theServerListensOnLoopbackWithAPortOfItsOwn() throws {
        let first = try LoopbackServer { _ in .status(200) }
        let second = try LoopbackServer { _ in .status(200) }
        defer {
            first.shutdown()
            second.shutdown()
        }
        #expect(first.port > 0)
        #expect(first.port != second.port)
        #expect(first.baseURL.absoluteString == "http://127.0.0.1:\(first.port)/")
        #expect(try first.url("/a?b=c").absoluteString == "http://127.0.0.1:\(first.port)/a?b=c")
        #expect(try first.url("no-slash").path == "/no-slash")
    }

    @Test func shutdownClosesEveryConnectionAndEndsEveryHandler() async throws {
        let arrived = LoopbackGate()
        let handlerEnded = LoopbackGate()
        let neverOpened = LoopbackGate()
        let server = try LoopbackServer { request in
            if request.path == "/held" {
                arrived.open()
                await neverOpened.wait()
                handlerEnded.open()
                return .text("too late")
            }
            return LoopbackResponse(fault: .stall)
        }
        let idle = try await RawHTTPConnection.open(port: server.port)
        let held = try await RawHTTPConnection.open(port: server.port)
        let stalled = try await RawHTTPConnection.open(port: server.port)
        try await held.write("GET /held HTTP/1.1\r\n\r\n")
        try await stalled.write("GET /stalled HTTP/1.1\r\n\r\n")
        try await LoopbackTesting.wait(for: arrived)

        server.shutdown()

        #expect(server.isShutDown)
        #expect(server.openConnectionCount == 0)
        try await LoopbackTesting.wait(for: handlerEnded)
        for connection in [idle, held, stalled] {
            #expect(try await connection.readToEnd().data.isEmpty)
        }
        await #expect(throws: RawHTTPConnection.Failure.self) { try await RawHTTPConnection.open(port: server.port) }
        server.shutdown()
    }

    @Test func releasingTheServerShutsItDown() async throws {
        var server: LoopbackServer? = try LoopbackServer { _ in .status(200) }
        let port = try #require(server?.port)
        let connection = try await RawHTTPConnection.open(port: port)
        server = nil
        #expect(server == nil)
        #expect(try await connection.readToEnd().data.isEmpty)
    }

    @Test func closeMidBodySendsPartOfTheBodyThenCloses() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(body: Data(count: 1000), fault: .closeMidBody(afterBytes: 100)) }
        defer { server.shutdown() }
        let connection = try await RawHTTPConnection.open(port: server.port)
        try await connection.write("GET / HTTP/1.1\r\n\r\n")
        let all = try await connection.readToEnd()
        let text = String(decoding: all.data, as: UTF8.self)
        let head = try #require(text.range(of: "\r\n\r\n"))
        #expect(text[..<head.lowerBound].contains("Content-Length: 1000"))
        #expect(all.data.count - text.utf8.distance(from: text.startIndex, to: head.upperBound) == 100)
    }

    @Test func resetConnectionResetsIt() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .resetConnection) }
        defer { server.shutdown() }
        let connection = try await RawHTTPConnection.open(port: server.port)
        try await connection.write("GET / HTTP/1.1\r\n\r\n")
        let result = try await connection.readToEnd()
        #expect(result.data.isEmpty)
        #expect(result.error == ECONNRESET)
    }

    @Test func throttledAndDelayedBodiesArriveWhole() async throws {
        let body = Data((0..<1000).map { UInt8($0 % 251) })
        let server = try LoopbackServer { request in
            let fault: LoopbackResponse.Fault = request.path == "/delay"
                ? .delayHeaders(.milliseconds(20)) : .throttleBody(chunk: 300, every: .milliseconds(5))
            return LoopbackResponse(body: body, chunked: request.path == "/chunked", fault: fault)
        }
        defer { server.shutdown() }
        let connection = try await RawHTTPConnection.open(port: server.port)
        for path in ["/delay", "/throttle", "/chunked"] {
            try await connection.write("GET \(path) HTTP/1.1\r\n\r\n")
            let response = try await connection.readResponse()
            #expect(response.body == body, "\(path)")
            #expect((response.headers["Transfer-Encoding"] == "chunked") == (path == "/chunked"))
        }
    }

    @Test func headResponsesAnnounceTheLengthWithoutABody() async throws {
        let server = try LoopbackServer { _ in .text("twelve bytes") }
        defer { server.shutdown() }
        let connection = try await RawHTTPConnection.open(port: server.port)
        try await connection.write("HEAD / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n")
        let head = try await connection.readResponse(toHeadRequest: true)
        #expect(head.headers["Content-Length"] == "12")
        #expect(try await connection.readResponse().text == "twelve bytes")
    }
}
