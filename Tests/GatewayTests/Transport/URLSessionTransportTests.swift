import Foundation
import Testing
@testable import Gateway
import GatewayTesting

/// The real `URLSessionTransport` against `LoopbackServer`: round trips, bodies, headers, and
/// what the transport must not keep.
@Suite(.quietScheduler) struct URLSessionTransportTests {
    let transport = URLSessionTransport()

    @Test func getRoundTripCarriesHeadersAndQueryAndReturnsTheBodyByteForByte() async throws {
        let payload = TransportTesting.bytes(70_000)
        let server = try LoopbackServer { _ in .data(payload, headers: ["X-Reply": "yes", "X-Multi": "a, b"]) }
        defer { server.shutdown() }

        let request = try TransportTesting.request(
            server, "/items/42?q=a%20b&tag=x&tag=y", headers: ["X-Trace": "t-1", "Accept": "application/json"])
        let response = try await transport.send(request)

        #expect(response.status == 200)
        #expect(response.body == payload)
        #expect(response.headers["x-reply"] == "yes")
        #expect(response.headers["Content-Type"] == "application/octet-stream")
        #expect(response.transportMetrics.bytesReceived == Int64(payload.count))
        #expect(response.transportMetrics.redirects == 0)
        #expect(response.transportMetrics.timeToFirstByte != nil)
        #expect(response.transportMetrics.duration > .zero)
        #expect(response.url?.path == "/items/42")

        let received = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(received.method == "GET")
        #expect(received.path == "/items/42")
        #expect(received.query == [.init(name: "q", value: "a b"), .init(name: "tag", value: "x"), .init(name: "tag", value: "y")])
        #expect(received.headers["x-trace"] == "t-1")
        #expect(received.headers["Accept"] == "application/json")
        #expect(received.headers["User-Agent"] == "Gateway/0.1")
        #expect(received.headers["Accept-Encoding"] == "gzip, deflate")
        #expect(received.body.isEmpty)
    }

    @Test func postSendsTheBodyByteForByte() async throws {
        let server = try LoopbackServer { request in
            .data(request.body, contentType: request.headers["Content-Type"] ?? "none", status: 201)
        }
        defer { server.shutdown() }
        let body = TransportTesting.bytes(300_000, seed: 7)

        let response = try await transport.send(try TransportTesting.request(
            server, "/upload", method: .post, headers: ["Content-Type": "application/x-test"], body: .data(body)))

        #expect(response.status == 201)
        #expect(response.body == body)
        #expect(response.headers["Content-Type"] == "application/x-test")
        #expect(response.transportMetrics.bytesSent == Int64(body.count))
        let received = try #require(server.requests.first)
        #expect(received.method == "POST")
        #expect(received.body == body)
        #expect(received.headers["Content-Length"] == "\(body.count)")
    }

    @Test(arguments: [HTTPMethod.put, .patch, .delete])
    func otherMethodsArriveAsSent(method: HTTPMethod) async throws {
        let server = try LoopbackServer { request in .text("\(request.method) \(request.text)") }
        defer { server.shutdown() }
        let response = try await transport.send(try TransportTesting.request(
            server, "/thing", method: method, headers: ["Content-Type": "text/plain"], body: .data(Data("payload".utf8))))
        #expect(String(decoding: response.body, as: UTF8.self) == "\(method.rawValue) payload")
    }

    @Test func aFileBodyIsStreamedAndArrivesByteForByte() async throws {
        let directory = try TransportTesting.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("upload.bin")
        let contents = TransportTesting.bytes(3 * 1024 * 1024 + 17, seed: 42)
        try contents.write(to: file)
        let server = try LoopbackServer { request in .text("\(request.body.count)") }
        defer { server.shutdown() }

        let response = try await transport.send(try TransportTesting.request(
            server, "/files", method: .post, headers: ["Content-Type": "application/octet-stream"],
            body: .file(file, length: Int64(contents.count), removeAfterSending: false)))

        #expect(String(decoding: response.body, as: UTF8.self) == "\(contents.count)")
        #expect(server.requests.first?.body == contents)
        #expect(response.transportMetrics.bytesSent == Int64(contents.count))
    }

    @Test func noContentHasAnEmptyBody() async throws {
        let server = try LoopbackServer { _ in .status(204, headers: ["X-Done": "1"]) }
        defer { server.shutdown() }
        let response = try await transport.send(try TransportTesting.request(server, "/gone", method: .delete))
        #expect(response.status == 204)
        #expect(response.body.isEmpty)
        #expect(response.headers["X-Done"] == "1")
    }

    @Test func headHasNoBodyAndIsNotMistakenForATruncatedOne() async throws {
        let server = try LoopbackServer { _ in .text(String(repeating: "x", count: 1000)) }
        defer { server.shutdown() }
        let response = try await transport.send(try TransportTesting.request(server, "/", method: .head))
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.headers["Content-Length"] == "1000")
    }

    @Test func theBodyIsFramedByTheTransportAndNeverLabelledAsAForm() async throws {
        let server = try LoopbackServer { request in .text(request.text) }
        defer { server.shutdown() }
        let response = try await transport.send(try TransportTesting.request(
            server, "/raw", method: .post, headers: ["Content-Length": "999"], body: .data(Data("abc".utf8))))
        #expect(String(decoding: response.body, as: UTF8.self) == "abc")
        let received = try #require(server.requests.first)
        #expect(received.headers.values(for: "Content-Length") == ["3"])
        #expect(received.headers["Content-Type"] == "application/octet-stream")
    }

    @Test(arguments: [HTTPMethod.get, .post])
    func anEmptyBodyIsSentAsNoBody(method: HTTPMethod) async throws {
        let server = try LoopbackServer { request in .text("\(request.body.count)") }
        defer { server.shutdown() }
        let response = try await transport.send(try TransportTesting.request(server, "/", method: method, body: .data(Data())))
        #expect(String(decoding: response.body, as: UTF8.self) == "0")
    }

    @Test func aHeadForALargeResourceIsNotTooLarge() async throws {
        let server = try LoopbackServer { _ in .data(Data(count: 200_000)) }
        defer { server.shutdown() }
        let response = try await transport.send(try TransportTesting.request(
            server, "/big", method: .head, maxResponseBytes: 1_000))
        #expect(response.status == 200)
        #expect(response.headers["Content-Length"] == "200000")
    }

    @Test func errorStatusesAreResponsesNotErrors() async throws {
        let server = try LoopbackServer { _ in .json(#"{"error":"nope"}"#, status: 422) }
        defer { server.shutdown() }
        let response = try await transport.send(try TransportTesting.request(server, "/"))
        #expect(response.status == 422)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"error":"nope"}"#)
    }

    @Test func aGzipBodyArrivesDecompressedAndIsNotTakenForTruncated() async throws {
        let server = try LoopbackServer { _ in
            .data(TransportTesting.gzipBody, contentType: "text/plain", headers: ["Content-Encoding": "gzip"])
        }
        defer { server.shutdown() }
        let response = try await transport.send(try TransportTesting.request(server, "/zipped"))
        #expect(String(decoding: response.body, as: UTF8.self) == TransportTesting.gzipText)
    }

    @Test func aChunkedResponseArrivesWhole() async throws {
        let payload = TransportTesting.bytes(100_000, seed: 3)
        let server = try LoopbackServer { _ in LoopbackResponse(body: payload, chunked: true) }
        defer { server.shutdown() }
        let response = try await transport.send(try TransportTesting.request(server, "/"))
        #expect(response.body == payload)
    }

    @Test func requestHeadersOverrideTheDefaults() async throws {
        let server = try LoopbackServer { _ in .status(200) }
        defer { server.shutdown() }
        _ = try await transport.send(try TransportTesting.request(
            server, "/", headers: ["User-Agent": "custom/1", "Accept-Encoding": "identity"]))
        let received = try #require(server.requests.first)
        #expect(received.headers.values(for: "User-Agent") == ["custom/1"])
        #expect(received.headers.values(for: "Accept-Encoding") == ["identity"])
    }

    @Test func cookiesAreNeitherStoredNorSent() async throws {
        let server = try LoopbackServer { _ in
            .text("ok", headers: ["Set-Cookie": "session=abc123; Path=/", "Cache-Control": "max-age=3600"])
        }
        defer { server.shutdown() }
        _ = try await transport.send(try TransportTesting.request(server, "/login"))
        _ = try await transport.send(try TransportTesting.request(server, "/login"))
        _ = try await transport.send(try TransportTesting.request(server, "/profile"))
        // Three requests reached the server: nothing was answered from a cache.
        #expect(server.requests.count == 3)
        #expect(server.requests.allSatisfy { !$0.headers.contains("Cookie") })
    }

    @Test func fiftyConcurrentRequestsAllSucceed() async throws {
        let server = try LoopbackServer { request in .text("echo \(request.queryValue("n") ?? "-")") }
        defer { server.shutdown() }
        let transport = self.transport
        let bodies = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for n in 0..<50 {
                let request = try TransportTesting.request(server, "/echo?n=\(n)")
                group.addTask {
                    let response = try await transport.send(request)
                    return (n, String(decoding: response.body, as: UTF8.self))
                }
            }
            var all: [Int: String] = [:]
            for try await (n, body) in group { all[n] = body }
            return all
        }
        #expect(bodies.count == 50)
        #expect(bodies.allSatisfy { $0.value == "echo \($0.key)" })
        #expect(server.requests.count == 50)
    }

    @Test func sequentialRequestsReuseOneConnection() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.shutdown() }
        for _ in 0..<5 { _ = try await transport.send(try TransportTesting.request(server, "/")) }
        #expect(server.requests.count == 5)
        #expect(server.connectionCount == 1)
    }
}
