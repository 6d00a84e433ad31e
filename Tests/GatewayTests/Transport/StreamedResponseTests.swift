import Foundation
import Gateway
import GatewayTesting
import Testing

/// `collect(upTo:)` over bodies in hand and bodies in chunks, with a transport that knows no limit.
@Suite struct StreamedResponseTests {
    static let body = Data((0..<10).map { UInt8($0) })

    static func send(_ reply: StubReply) async throws -> StreamedResponse {
        let stub = StubTransport().on(.get, "file", reply: reply)
        let url = try #require(URL(string: "https://api.example.com/file"))
        return try await stub.send(HTTPRequest(method: .get, url: url))
    }

    @Test func aBodyInChunksArrivesChunkByChunkAndCollectsWhole() async throws {
        var sizes: [Int] = []
        for try await chunk in try await Self.send(.status(200, body: Self.body).inChunks(of: 3)).body {
            sizes.append(chunk.count)
        }
        #expect(sizes == [3, 3, 3, 1])
        let response = try await Self.send(.status(200, body: Self.body).inChunks(of: 3)).collect(upTo: 10)
        #expect(response.body == Self.body)
        #expect(response.transportMetrics.bytesReceived == 10)
    }

    @Test(arguments: [nil, 3] as [Int?])
    func collectStopsPastItsLimitWhateverTheTransportDoes(chunkSize: Int?) async throws {
        let reply = StubReply.status(200, body: Self.body)
        let streamed = try await Self.send(chunkSize.map { reply.inChunks(of: $0) } ?? reply)
        let error = await #expect(throws: GatewayError.self) { try await streamed.collect(upTo: 5) }
        #expect(error?.kind == .responseTooLarge)
        #expect(error?.message.contains("larger than the limit of 5 bytes") == true, "\(String(describing: error))")
        #expect(error?.fix?.contains("maxResponseBytes") == true)
    }

    @Test func theMetricsOfAWholeBodyAreKnownAtOnceAndThoseOfAStreamedOneAtItsEnd() async throws {
        let metrics = TransportMetrics(duration: .milliseconds(7), bytesReceived: 10, redirects: 1)
        let whole = StreamedResponse(HTTPResponse(status: 200, body: Self.body, transportMetrics: metrics))
        #expect(whole.body.metrics == metrics)
        #expect(try await whole.collect(upTo: 10).transportMetrics == metrics)

        let chunks = AsyncThrowingStream<Data, any Error> { continuation in
            continuation.yield(Self.body.prefix(4))
            continuation.yield(Self.body.dropFirst(4))
            continuation.finish()
        }
        let streamed = StreamedResponse(status: 200, body: ResponseBody(chunks) { received in
            TransportMetrics(bytesReceived: received)
        })
        #expect(streamed.body.metrics == nil)
        let response = try await streamed.collect(upTo: 10)
        #expect(response.body == Self.body)
        #expect(response.transportMetrics.bytesReceived == 10)
        #expect(streamed.body.metrics?.bytesReceived == 10)
    }
}
