import Foundation
import Gateway
import GatewayTesting
import Testing

/// Redirects, cut-off bodies, stalls and oversized bodies as `provider.send` reports them, through
/// the real `URLSessionTransport` and loopback servers.
@Suite(.quietScheduler) struct TransportEndToEndTests {
    @Test func aSameOriginRedirectKeepsTheBearerToken() async throws {
        let server = try LoopbackServer { request in
            request.path == "/api/old" ? .redirect(to: "/api/new", status: 307) : .text("arrived")
        }
        defer { server.shutdown() }
        let provider = try EndToEnd.provider(server) { $0.auth = .bearer("s3cret") }

        let response = try await provider.send(Endpoint<Data>.get("old"))

        #expect(String(decoding: response.value, as: UTF8.self) == "arrived")
        #expect(response.httpResponse.url?.path == "/api/new")
        #expect(response.httpResponse.transportMetrics.redirects == 1)
        #expect(server.requests.map(\.path) == ["/api/old", "/api/new"])
        #expect(server.requests.map { $0.headers["Authorization"] } == ["Bearer s3cret", "Bearer s3cret"])
    }

    @Test(arguments: [302, 307])
    func aCrossOriginRedirectArrivesWithoutAuthorization(status: Int) async throws {
        let other = try LoopbackServer { _ in .text("elsewhere") }
        defer { other.shutdown() }
        let target = try other.url("/landing")
        let server = try LoopbackServer { _ in .redirect(to: target, status: status) }
        defer { server.shutdown() }
        let provider = try EndToEnd.provider(server) { $0.auth = .bearer("s3cret") }

        let response = try await provider.send(
            Endpoint<Data>.get("start").header("Cookie", "session=abc").header("X-Trace", "t-1"))

        #expect(String(decoding: response.value, as: UTF8.self) == "elsewhere")
        #expect(response.httpResponse.url?.port == other.port)
        let first = try EndToEnd.onlyRequest(server)
        #expect(first.headers["Authorization"] == "Bearer s3cret")
        let arrived = try EndToEnd.onlyRequest(other)
        #expect(!arrived.headers.contains("Authorization"))
        #expect(!arrived.headers.contains("Cookie"))
        #expect(arrived.headers["X-Trace"] == "t-1")
    }

    @Test func a307RedirectResendsAStreamedMultipartBodyByteForByte() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("mix.flac")
        let bytes = TransportTesting.bytes(96 * 1024, seed: 3)
        try bytes.write(to: file)
        let server = try LoopbackServer { request in
            request.path == "/api/upload" ? .redirect(to: "/api/v2/upload", status: 307) : .status(204)
        }
        defer { server.shutdown() }
        let encoder = MultipartParameterEncoder.multipart(
            boundary: .fixed("redirect-boundary"), streamingThreshold: 1024, temporaryDirectory: folder.url)

        let response = try await EndToEnd.provider(server).send(
            Endpoint<Empty>.post("upload", body: MultipartForm([.file("mix", url: file)]), encoder: encoder))

        #expect(response.status == 204)
        #expect(server.requests.map { "\($0.method) \($0.path)" } == ["POST /api/upload", "POST /api/v2/upload"])
        #expect(server.requests.first?.body == server.requests.last?.body)
        let parts = try MultipartReader.parts(try #require(server.requests.last).body, boundary: "redirect-boundary")
        #expect(parts.map(\.content) == [bytes])
        #expect(folder.contents == ["mix.flac"], "the temporary body file is removed after the attempt")
    }

    @Test(arguments: [false, true])
    func aBodyCutOffMidwayEndsInAnErrorNeverASuccess(chunked: Bool) async throws {
        let server = try LoopbackServer { _ in
            LoopbackResponse(body: TransportTesting.bytes(300_000), chunked: chunked,
                             fault: .closeMidBody(afterBytes: 100_000))
        }
        defer { server.shutdown() }
        let log = EventLog()
        let provider = try EndToEnd.provider(server) {
            $0.observers = [log]
            $0.retryPolicy = .none  // A lost connection is retryable; this test is about one attempt.
        }

        let error = try await #require(throws: GatewayError.self) {
            try await provider.send(Endpoint<Data>.get("track.mp3"))
        }

        #expect(error.kind == .transport)
        #expect(error.endpoint == "GET track.mp3")
        #expect(error.response == nil)
        #expect(log.all == ["enqueued", "dequeued", "encoded 1", "sent 1", "finished failure transport"])
    }

    @Test func aStalledServerEndsInATimeoutInsideTheDeadline() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .stall) }
        defer { server.shutdown() }
        let provider = try EndToEnd.provider(server) { config in
            config.timeout = .milliseconds(500)
            config.deadline = .seconds(20)
        }
        let started = ContinuousClock.now

        let error = try await #require(throws: GatewayError.self) {
            try await provider.send(Endpoint<Data>.get("stall"))
        }

        #expect(ContinuousClock.now - started < .seconds(20))
        #expect(error.kind == .timeout)
        #expect(error.message.contains("per-request timeout"))
        #expect(error.fix?.contains("timeout") == true)
        #expect(error.endpoint == "GET stall")
    }

    @Test func aDeadlineShorterThanTheTimeoutEndsTheCallAtTheDeadline() async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(fault: .stall) }
        defer { server.shutdown() }
        let provider = try EndToEnd.provider(server) { $0.timeout = .seconds(60) }
        let started = ContinuousClock.now

        let error = try await #require(throws: GatewayError.self) {
            try await provider.send(Endpoint<Data>.get("stall").with { $0.deadline = .milliseconds(500) })
        }

        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(error.kind == .timeout)
        #expect(error.message.contains("deadline"))
    }

    @Test(arguments: [false, true])
    func anOversizedBodyEndsInTheSizeLimitError(chunked: Bool) async throws {
        let server = try LoopbackServer { _ in LoopbackResponse(body: Data(count: 4 * 1024 * 1024), chunked: chunked) }
        defer { server.shutdown() }
        let provider = try EndToEnd.provider(server) { $0.maxResponseBytes = 256 * 1024 }

        let error = try await #require(throws: GatewayError.self) {
            try await provider.send(Endpoint<Data>.get("huge"))
        }

        #expect(error.kind == .responseTooLarge)
        #expect(error.message.contains("\(256 * 1024) bytes"))
        #expect(error.fix?.contains("maxResponseBytes") == true)
        #expect(error.endpoint == "GET huge")
    }

    @Test func anEndpointsOwnSizeLimitWinsOverTheProviders() async throws {
        let payload = TransportTesting.bytes(300 * 1024)
        let server = try LoopbackServer { _ in .data(payload) }
        defer { server.shutdown() }
        let provider = try EndToEnd.provider(server) { $0.maxResponseBytes = 256 * 1024 }

        let response = try await provider.send(Endpoint<Data>.get("big").with { $0.maxResponseBytes = 512 * 1024 })

        #expect(response.value == payload)
    }
}
