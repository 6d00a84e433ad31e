#if canImport(Testing)
import Foundation
import Gateway
import Testing

extension TransportConformance {
    func runRoundTrip(_ check: Check) async throws {
        switch check {
        case .getRoundTripCarriesHeadersAndQueryAndReturnsTheBodyByteForByte: try await getRoundTrip()
        case .postSendsTheBodyByteForByte: try await postBody()
        case .otherMethodsArriveAsSent: try await otherMethods()
        case .aFileBodyIsStreamedAndArrivesByteForByte: try await fileBody()
        case .noContentHasAnEmptyBody: try await noContent()
        case .headHasNoBodyAndIsNotMistakenForATruncatedOne: try await head()
        case .theBodyIsFramedByTheTransportAndNeverLabelledAsAForm: try await framing()
        case .anEmptyBodyIsSentAsNoBody: try await emptyBody()
        case .aHeadForALargeResourceIsNotTooLarge: try await headForLargeResource()
        case .errorStatusesAreResponsesNotErrors: try await errorStatus()
        case .aGzipBodyArrivesDecompressedAndIsNotTakenForTruncated: try await gzip()
        case .aChunkedResponseArrivesWhole: try await chunked()
        case .requestHeadersOverrideTheDefaults: try await headerOverrides()
        case .cookiesAreNeitherStoredNorSent: try await cookies()
        case .fiftyConcurrentRequestsAllSucceed: try await fiftyConcurrent()
        case .sequentialRequestsReuseOneConnection: try await connectionReuse()
        default: Issue.record("\(check) is not a round-trip check")
        }
    }

    private func getRoundTrip() async throws {
        let payload = Self.bytes(70_000)
        let server = try LoopbackServer { _ in .data(payload, headers: ["X-Reply": "yes", "X-Multi": "a, b"]) }
        defer { server.shutdown() }
        let request = try Self.request(
            server, "/items/42?q=a%20b&tag=x&tag=y", headers: ["X-Trace": "t-1", "Accept": "application/json"])
        let response = try await withTransport { try await Self.collect($0, request) }

        #expect(response.status == 200)
        #expect(Self.difference(response.body, from: payload) == nil)
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
        #expect(
            received.query == [
                .init(name: "q", value: "a b"), .init(name: "tag", value: "x"), .init(name: "tag", value: "y"),
            ])
        #expect(received.headers["x-trace"] == "t-1")
        #expect(received.headers["Accept"] == "application/json")
        #expect(received.headers["User-Agent"] == "Gateway/0.1")
        #expect(received.headers["Accept-Encoding"] == "gzip, deflate")
        #expect(received.body.isEmpty)
    }

    private func postBody() async throws {
        let server = try LoopbackServer { request in
            .data(request.body, contentType: request.headers["Content-Type"] ?? "none", status: 201)
        }
        defer { server.shutdown() }
        let body = Self.bytes(300_000, seed: 7)
        let request = try Self.request(
            server, "/upload", method: .post, headers: ["Content-Type": "application/x-test"], body: .data(body))
        let response = try await withTransport { try await Self.collect($0, request) }

        #expect(response.status == 201)
        #expect(Self.difference(response.body, from: body) == nil)
        #expect(response.headers["Content-Type"] == "application/x-test")
        #expect(response.transportMetrics.bytesSent == Int64(body.count))
        let received = try #require(server.requests.first)
        #expect(received.method == "POST")
        #expect(Self.difference(received.body, from: body) == nil)
        #expect(received.headers["Content-Length"] == "\(body.count)")
    }

    private func otherMethods() async throws {
        let server = try LoopbackServer { request in .text("\(request.method) \(request.text)") }
        defer { server.shutdown() }
        try await withTransport { transport in
            for method in [HTTPMethod.put, .patch, .delete] {
                let response = try await Self.collect(transport, 
                    try Self.request(
                        server, "/thing", method: method, headers: ["Content-Type": "text/plain"],
                        body: .data(Data("payload".utf8))))
                #expect(Self.text(response.body) == "\(method.rawValue) payload")
            }
        }
    }

    private func fileBody() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gateway-conformance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("upload.bin")
        let contents = Self.bytes(3 * 1024 * 1024 + 17, seed: 42)
        try contents.write(to: file)
        let server = try LoopbackServer { request in .text("\(request.body.count)") }
        defer { server.shutdown() }
        let request = try Self.request(
            server, "/files", method: .post, headers: ["Content-Type": "application/octet-stream"],
            body: .file(file, length: Int64(contents.count), removeAfterSending: false))
        let response = try await withTransport { try await Self.collect($0, request) }

        #expect(Self.text(response.body) == "\(contents.count)")
        #expect(server.requests.first?.body == contents)
        #expect(response.transportMetrics.bytesSent == Int64(contents.count))
    }

    private func noContent() async throws {
        let server = try LoopbackServer { _ in .status(204, headers: ["X-Done": "1"]) }
        defer { server.shutdown() }
        let response = try await withTransport { try await Self.collect($0, try Self.request(server, "/gone", method: .delete)) }
        #expect(response.status == 204)
        #expect(response.body.isEmpty)
        #expect(response.headers["X-Done"] == "1")
    }

    private func head() async throws {
        let server = try LoopbackServer { _ in .text(String(repeating: "x", count: 1000)) }
        defer { server.shutdown() }
        let response = try await withTransport { try await Self.collect($0, try Self.request(server, "/", method: .head)) }
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.headers["Content-Length"] == "1000")
    }

    private func framing() async throws {
        let server = try LoopbackServer { request in .text(request.text) }
        defer { server.shutdown() }
        let request = try Self.request(
            server, "/raw", method: .post, headers: ["Content-Length": "999"], body: .data(Data("abc".utf8)))
        let response = try await withTransport { try await Self.collect($0, request) }
        #expect(Self.text(response.body) == "abc")
        let received = try #require(server.requests.first)
        #expect(received.headers.values(for: "Content-Length") == ["3"])
        #expect(received.headers["Content-Type"] == "application/octet-stream")
    }

    private func emptyBody() async throws {
        let server = try LoopbackServer { request in .text("\(request.body.count)") }
        defer { server.shutdown() }
        try await withTransport { transport in
            for method in [HTTPMethod.get, .post] {
                let response = try await Self.collect(transport, 
                    try Self.request(server, "/", method: method, body: .data(Data())))
                #expect(Self.text(response.body) == "0", "\(method)")
            }
        }
    }

    private func headForLargeResource() async throws {
        let server = try LoopbackServer { _ in .data(Data(count: 200_000)) }
        defer { server.shutdown() }
        let request = try Self.request(server, "/big", method: .head, maxResponseBytes: 1_000)
        let response = try await withTransport { try await Self.collect($0, request) }
        #expect(response.status == 200)
        #expect(response.headers["Content-Length"] == "200000")
    }

    private func errorStatus() async throws {
        let server = try LoopbackServer { _ in .json(#"{"error":"nope"}"#, status: 422) }
        defer { server.shutdown() }
        let response = try await withTransport { try await Self.collect($0, try Self.request(server, "/")) }
        #expect(response.status == 422)
        #expect(Self.text(response.body) == #"{"error":"nope"}"#)
    }

    private func gzip() async throws {
        let server = try LoopbackServer { _ in
            .data(Self.gzipBody, contentType: "text/plain", headers: ["Content-Encoding": "gzip"])
        }
        defer { server.shutdown() }
        let response = try await withTransport { try await Self.collect($0, try Self.request(server, "/zipped")) }
        #expect(Self.text(response.body) == Self.gzipText)
    }

    private func chunked() async throws {
        let payload = Self.bytes(100_000, seed: 3)
        let server = try LoopbackServer { _ in LoopbackResponse(body: payload, chunked: true) }
        defer { server.shutdown() }
        let response = try await withTransport { try await Self.collect($0, try Self.request(server, "/")) }
        #expect(Self.difference(response.body, from: payload) == nil)
    }

    private func headerOverrides() async throws {
        let server = try LoopbackServer { _ in .status(200) }
        defer { server.shutdown() }
        let request = try Self.request(server, "/", headers: ["User-Agent": "custom/1", "Accept-Encoding": "identity"])
        _ = try await withTransport { try await Self.collect($0, request) }
        let received = try #require(server.requests.first)
        #expect(received.headers.values(for: "User-Agent") == ["custom/1"])
        #expect(received.headers.values(for: "Accept-Encoding") == ["identity"])
    }

    private func cookies() async throws {
        let server = try LoopbackServer { _ in
            .text("ok", headers: ["Set-Cookie": "session=abc123; Path=/", "Cache-Control": "max-age=3600"])
        }
        defer { server.shutdown() }
        try await withTransport { transport in
            for path in ["/login", "/login", "/profile"] {
                _ = try await Self.collect(transport, try Self.request(server, path))
            }
        }
        // Three requests reached the server: nothing was answered from a cache.
        #expect(server.requests.count == 3)
        #expect(server.requests.allSatisfy { !$0.headers.contains("Cookie") })
    }

    private func fiftyConcurrent() async throws {
        let server = try LoopbackServer { request in .text("echo \(request.queryValue("n") ?? "-")") }
        defer { server.shutdown() }
        let bodies = try await withTransport { transport in
            try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for n in 0..<50 {
                    let request = try Self.request(server, "/echo?n=\(n)")
                    group.addTask { (n, Self.text(try await Self.collect(transport, request).body)) }
                }
                var all: [Int: String] = [:]
                for try await (n, body) in group { all[n] = body }
                return all
            }
        }
        #expect(bodies.count == 50)
        #expect(bodies.allSatisfy { $0.value == "echo \($0.key)" })
        #expect(server.requests.count == 50)
    }

    private func connectionReuse() async throws {
        let server = try LoopbackServer { _ in .text("ok") }
        defer { server.shutdown() }
        try await withTransport { transport in
            for _ in 0..<5 { _ = try await Self.collect(transport, try Self.request(server, "/")) }
        }
        #expect(server.requests.count == 5)
        #expect(server.connectionCount == 1)
    }
}
#endif
