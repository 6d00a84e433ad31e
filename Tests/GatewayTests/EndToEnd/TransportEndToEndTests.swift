import Foundation
import Gateway
import GatewayTestSupport
import GatewayTesting
import Testing

/// A streamed multipart body across a redirect and a cut-off body as the observers see it, through
/// `provider.send`, the real `URLSessionTransport` and loopback servers. The transport-agnostic
/// end-to-end checks (redirect origin rules, stalls, deadlines, size limits) are in
/// `TransportConformance`, run by `URLSessionTransportTests`.
@Suite(.quietScheduler) struct TransportEndToEndTests {
    @Test func a307RedirectResendsAStreamedMultipartBodyByteForByte() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("mix.flac")
        let bytes = TransportConformance.bytes(96 * 1024, seed: 3)
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
            LoopbackResponse(body: TransportConformance.bytes(300_000), chunked: chunked,
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
}
