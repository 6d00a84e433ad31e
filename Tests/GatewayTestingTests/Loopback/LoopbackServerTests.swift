import Foundation
import Testing
import GatewayTestSupport
import GatewayTesting

/// The loopback server on the wire: keep-alive, body framing, many connections, shutdown.
@Suite(.offPool, .quietScheduler) struct LoopbackServerTests {
    @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
        let server = try LoopbackServer { request in .text("you asked for \(request.path)") }
        defer { server.shutdown() }
        let connection = try await RawHTTPConnection.open(port: server.port)

        try await connection.write("GET /first HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let first = try await connection.readResponse()
        try await connection.write("GET /second HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let second = try await connection.readResponse()

        #expect(first.text == "you asked for /first")
        #expect(second.text == "you asked for /second")
        #expect(second.headers["Connection"] == nil)
        #expect(server.connectionCount == 1)
        #expect(Set(server.requests.map(\.connectionID)) == [1])
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let server = try LoopbackServer { request in .text(request.path) }
        defer { server.shutdown() }
        let connection = try await RawHTTPConnection.open(port: server.port)
        try await connection.write("GET /a HTTP/1.1\r\nHost: x\r\n\r\nPOST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nxyzGET /c HTTP/1.1\r\nHost: x\r\n\r\n")
        var paths: [String] = []
        for _ in 0..<3 { paths.append(try await connection.readResponse().text) }
        #expect(paths == ["/a", "/b", "/c"])
        #expect(server.requests.map(\.text) == ["", "xyz", ""])
    }

    @Test func aChunkedRequestBodyIsReassembled() async throws {
        let server = try LoopbackServer { request in .data(request.body) }
        defer { server.shutdown() }
        let connection = try await RawHTTPConnection.open(port: server.port)
        try await connection.write(
            "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhello\r\n1;name=value\r\n \r\nA\r\n0123456789\r\n0\r\nX-Trailer: yes\r\n\r\n")
        let response = try await connection.readResponse()
        #expect(response.text == "hello 0123456789")
        #expect(server.requests.first?.body == Data("hello 0123456789".utf8))
    }

    @Test func aBodyArrivingInPiecesIsReadWhole() async throws {
        let server = try LoopbackServer { request in .text("\(request.body.count)") }
        defer { server.shutdown() }
        let connection = try await RawHTTPConnection.open(port: server.port)
        try await connection.write("PUT /x HTTP/1.1\r\nHost: x\r\nContent-Le")
        try await connection.write("ngth: 10\r\n\r\n01234")
        try await connection.write("56789")
        #expect(try await connection.readResponse().text == "10")
    }

    @Test func expectContinueGetsAnInterimResponse() async throws {
        let server = try LoopbackServer { request in .text(request.text) }
        defer { server.shutdown() }
        let connection = try await RawHTTPConnection.open(port: server.port)
        try await connection.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
        let interim = try await connection.readResponse()
        #expect(interim.status == 100)
        try await connection.write("body")
        #expect(try await connection.readResponse().text == "body")
    }

    @Test(arguments: [
        "GARBAGE\r\n\r\n",
        "GET /\r\n\r\n",
        "GET / HTTP/2.0\r\nHost: x\r\n\r\n",
        "GET relative HTTP/1.1\r\n\r\n",
        "GET / HTTP/1.1\r\nNo colon here\r\n\r\n",
        "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n",
        "GET / HTTP/1.1\r\nX-A: 1\r\n  folded\r\n\r\n",
        "GET / HTTP/1.1\r\nX-A: a\u{0}b\r\n\r\n",
        "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc",
        "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
        "POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
        "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcXY0\r\n\r\n",
        "G(T / HTTP/1.1\r\n\r\n",
    ])
    func malformedRequestsGet400AndTheConnectionCloses(raw: String) async throws {
        let server = try LoopbackServer { _ in .text("should not run") }
        defer { server.shutdown() }
        let connection = try await RawHTTPConnection.open(port: server.port)
        try await connection.write(raw)
        let response = try await connection.readResponse()
        #expect(response.status == 400)
        #expect(response.headers["Connection"] == "close")
        #expect(!response.text.isEmpty)
        let rest = try await connection.readToEnd()
        #expect(rest.data.isEmpty)
        #expect(server.requests.isEmpty)
    }

    @Test func aBodyOverTheLimitGets413() async throws {
        let server = try LoopbackServer(maxRequestBodyBytes: 100) { _ in .text("should not run") }
        defer { server.shutdown() }
        let connection = try await RawHTTPConnection.open(port: server.port)
        try await connection.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
        #expect(try await connection.readResponse().status == 413)
    }

    @Test func aHeadOverTheLimitGets431() async throws {
        let server = try LoopbackServer { _ in .text("should not run") }
        defer { server.shutdown() }
        let connection = try await RawHTTPConnection.open(port: server.port)
        try await connection.write("GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 70_000) + "\r\n\r\n")
        let response = try await connection.readResponse()
        #expect(response.status == 431, "\(response.status) \(response.text)")
    }

    @Test func http10ClosesAfterTheResponseUnlessAskedToKeepAlive() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.shutdown() }
        let connection = try await RawHTTPConnection.open(port: server.port)
        try await connection.write("GET / HTTP/1.0\r\n\r\n")
        let response = try await connection.readResponse()
        #expect(response.headers["Connection"] == "close")
        #expect(try await connection.readToEnd().data.isEmpty)
    }

    @Test func connectionCloseIsHonoured() async throws {
        let server = try LoopbackServer { _ in .text("bye") }
        defer { server.shutdown() }
        let connection = try await RawHTTPConnection.open(port: server.port)
        try await connection.write("GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
        #expect(try await connection.readResponse().text == "bye")
        #expect(try await connection.readToEnd().error == nil)
    }

    @Test func requestsAreRecordedWithTheirDetails() async throws {
        let server = try LoopbackServer { _ in .status(204) }
        defer { server.shutdown() }
        let connection = try await RawHTTPConnection.open(port: server.port)
        try await connection.write(
            "PATCH /a%20b/c?x=1&y=two+words&flag&z=%E2%9C%93&x=2 HTTP/1.1\r\nHost: x\r\nX-One: 1\r\nx-one: again\r\nContent-Length: 2\r\n\r\nhi")
        let response = try await connection.readResponse()
        #expect(response.status == 204)
        #expect(response.headers["Content-Length"] == nil)

        let request = try #require(server.requests.first)
        #expect(request.method == "PATCH")
        #expect(request.target == "/a%20b/c?x=1&y=two+words&flag&z=%E2%9C%93&x=2")
        #expect(request.path == "/a%20b/c")
        #expect(request.decodedPath == "/a b/c")
        #expect(request.query.map(\.name) == ["x", "y", "flag", "z", "x"])
        #expect(request.queryValue("y") == "two words")
        #expect(request.queryValue("z") == "✓")
        #expect(request.queryValues("x") == ["1", "2"])
        #expect(request.query[2].value == nil)
        #expect(request.headers.values(for: "X-ONE") == ["1", "again"])
        #expect(request.headers.fields.map(\.name) == ["Host", "X-One", "x-one", "Content-Length"])
        #expect(request.text == "hi")
    }

    @Test func aThrowingHandlerGives500AndTheServerCarriesOn() async throws {
        struct Boom: Error {}
        let server = try LoopbackServer { request in
            if request.path == "/boom" { throw Boom() }
            return .text("fine")
        }
        defer { server.shutdown() }
        let connection = try await RawHTTPConnection.open(port: server.port)
        try await connection.write("GET /boom HTTP/1.1\r\n\r\n")
        let failed = try await connection.readResponse()
        #expect(failed.status == 500)
        #expect(failed.text.contains("Boom"))
        try await connection.write("GET /ok HTTP/1.1\r\n\r\n")
        #expect(try await connection.readResponse().text == "fine")
    }

    @Test func manyConnectionsAreServedAtOnce() async throws {
        let count = 24
        let arrivals = CountingGate(target: count)
        let release = LoopbackGate()
        let server = try LoopbackServer { request in
            arrivals.arrive()
            await release.wait()
            return .text(request.path)
        }
        defer { server.shutdown() }
        var connections: [RawHTTPConnection] = []
        for index in 0..<count {
            let connection = try await RawHTTPConnection.open(port: server.port)
            try await connection.write("GET /\(index) HTTP/1.1\r\n\r\n")
            connections.append(connection)
        }
        // Every handler is waiting at the same time: no connection waits for another.
        try await LoopbackTesting.wait(for: arrivals.gate)
        #expect(server.openConnectionCount == count)
        release.open()
        for (index, connection) in connections.enumerated() {
            #expect(try await connection.readResponse().text == "/\(index)")
        }
    }
}
