import Foundation
import Gateway
import GatewayTestSupport
import GatewayTesting
import Testing

/// Compressed bodies are limited by what they inflate to: a small body that inflates past
/// `maxResponseBytes` stops the transfer at the limit, through the real `URLSessionTransport` (the
/// conformance check `collectStopsACompressionBombAtItsLimit` counts what reached the reader).
@Suite(.quietScheduler) struct CompressionBombTests {
    @Test func aDeflateBodyWithinTheLimitArrivesInflated() async throws {
        let compressed = Data(CompressionBomb.zlib(inflatingTo: 100_000))
        let server = try LoopbackServer { _ in LoopbackResponse(headers: ["Content-Encoding": "deflate"], body: compressed) }
        defer { server.shutdown() }

        let request = try TransportConformance.request(server, "/small")
        let transport = URLSessionTransport()  // kept until the body is read
        let response = try await transport.send(request).collect(upTo: request.maxResponseBytes)

        #expect(response.status == 200)
        #expect(response.body == Data(count: 100_000))
        #expect(compressed.count < 1_000, "the test body is compressed: \(compressed.count) bytes")
    }

    @Test(arguments: ["gzip", "deflate"])
    func aBodyThatInflatesPastTheLimitStopsAtTheLimit(encoding: String) async throws {
        let limit = 1 << 20
        let inflated = 64 << 20
        let compressed = Data(encoding == "gzip" ? CompressionBomb.gzip(inflatingTo: inflated)
                                                 : CompressionBomb.zlib(inflatingTo: inflated))
        #expect(compressed.count < limit, "only the inflated body is over the limit")
        let server = try LoopbackServer { _ in LoopbackResponse(headers: ["Content-Encoding": encoding], body: compressed) }
        defer { server.shutdown() }
        var request = try TransportConformance.request(server, "/bomb", timeout: .seconds(20))
        request.maxResponseBytes = limit
        request.deadline = .now + .seconds(20)

        let transport = URLSessionTransport()  // kept until the body is read
        let error = try await #require(throws: GatewayError.self) {
            try await transport.send(request).collect(upTo: request.maxResponseBytes)
        }

        #expect(error.kind == .responseTooLarge, "\(error)")
        #expect(error.message.contains("larger than the limit of \(limit) bytes"), "\(error.message)")
        #expect(error.message.contains("after decompression"), "\(error.message)")
    }
}
