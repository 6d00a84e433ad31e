#if canImport(Testing)
import Foundation
import Gateway
import Testing

extension TransportConformance {
    func runStreaming(_ check: Check) async throws {
        switch check {
        case .theBodyArrivesInChunksAsTheServerSendsIt: try await arrivesInChunks()
        case .theMetricsAreKnownWhenTheBodyEnds: try await metricsAtTheEnd()
        case .collectStopsACompressionBombAtItsLimit: try await compressionBomb()
        case .cancellingWhileReadingTheBodyEndsTheExchange: try await cancelWhileReading()
        case .forEachChunkHandsOverTheWholeBodyInOrder: try await handsOverInOrder()
        case .aConsumersErrorEndsTheExchangeAndComesBackAsItIs: try await consumerFails()
        case .forEachChunkHoldsTheLimitAndFailsABodyCutOff: try await handOverLimits()
        case .cancellingDuringForEachChunkEndsTheExchange: try await cancelDuringHandOver()
        default: Issue.record("\(check) is not a streaming check")
        }
    }

    private func arrivesInChunks() async throws {
        // The second half follows a second after the first: the first chunk cannot hold it.
        let payload = Self.bytes(8_192, seed: 11)
        let server = try LoopbackServer { _ in .data(payload).with(fault: .throttleBody(chunk: 4_096, every: .seconds(1))) }
        defer { server.shutdown() }
        let request = try Self.request(server, "/halves")
        let chunks = try await withTransport { transport in
            var chunks: [Data] = []
            for try await chunk in try await transport.send(request).body { chunks.append(chunk) }
            return chunks
        }
        #expect(chunks.count >= 2)
        #expect((chunks.first?.count ?? 0) <= 4_096)
        #expect(chunks.reduce(Data(), +) == payload)
    }

    private func metricsAtTheEnd() async throws {
        let payload = Self.bytes(100_000, seed: 12)
        let server = try LoopbackServer { _ in .data(payload) }
        defer { server.shutdown() }
        let request = try Self.request(server, "/", method: .post, body: .data(Data("12345".utf8)))
        let (before, response) = try await withTransport { transport in
            let streamed = try await transport.send(request)
            return (streamed.body.metrics, try await streamed.collect(upTo: request.maxResponseBytes))
        }
        #expect(before == nil, "the metrics wait for the body's end")
        #expect(Self.difference(response.body, from: payload) == nil)
        #expect(response.transportMetrics.bytesReceived == Int64(payload.count))
        #expect(response.transportMetrics.bytesSent == 5)
        #expect(response.transportMetrics.duration > .zero)
    }

    /// A body that inflates 64 times past the limit: `collect` counts decoded bytes and stops the
    /// exchange at the limit, whether or not the transport itself knows the limit.
    private func compressionBomb() async throws {
        let limit = 1 << 20
        for (encoding, transportLimit) in [("gzip", 1 << 30), ("deflate", 1 << 30), ("gzip", limit)] {
            let inflated = 64 << 20
            let compressed = Data(encoding == "gzip" ? CompressionBomb.gzip(inflatingTo: inflated)
                                                     : CompressionBomb.zlib(inflatingTo: inflated))
            let server = try LoopbackServer { _ in LoopbackResponse(headers: ["Content-Encoding": encoding], body: compressed) }
            defer { server.shutdown() }
            let request = try Self.request(
                server, "/bomb", timeout: .seconds(20), deadline: .now + .seconds(20), maxResponseBytes: transportLimit)
            let counted = ChunkCount()
            let error = try await withTransport { transport in
                await #expect(throws: GatewayError.self) {
                    try await counted.counting(try await transport.send(request)).collect(upTo: limit)
                }
            }
            let label = "\(encoding), transport limit \(transportLimit)"
            #expect(error?.kind == .responseTooLarge, "\(label): \(String(describing: error))")
            #expect(error?.message.contains("limit of \(limit) bytes") == true, "\(label)")
            #expect(error?.message.contains("after decompression") == true, "\(label)")
            // What reached the reader: the limit and at most one chunk more, whatever the body inflates to.
            #expect(counted.bytes <= limit + counted.largest, "\(label): \(counted.bytes) bytes")
            #expect(counted.largest <= Self.largestChunk, "\(label): a chunk of \(counted.largest) bytes")
        }
    }

    private func cancelWhileReading() async throws {
        let server = try Self.stallingServer(seed: 13)
        defer { server.shutdown() }
        let request = try Self.request(server, "/stuck", timeout: .seconds(240))
        let (first, result) = try await withTransport { transport in
            let started = LoopbackGate()
            let firstChunk = Locked<Int>(0)
            let reading = Task {
                do {
                    var body = try await transport.send(request).body.makeAsyncIterator()
                    // The first piece the server sends, in however many chunks it arrives.
                    while firstChunk.value < 4_096, let chunk = try await body.next() {
                        firstChunk.withLock { $0 += chunk.count }
                    }
                    started.open()
                    return try await body.next()
                } catch {
                    started.open()
                    throw error
                }
            }
            await started.wait()
            reading.cancel()
            return (firstChunk.value, await reading.result)
        }
        #expect(first == 4_096)
        #expect(throws: CancellationError.self) { try result.get() }
    }

    /// The largest chunk a transport may hand out: a chunk is what one read of the network
    /// (and one step of inflation) produced.
    static let largestChunk = 256 * 1024
}

/// Counts the chunks a body yields on their way to `collect`.
final class ChunkCount: Sendable {
    private let state = Locked<(bytes: Int, largest: Int)>((0, 0))

    var bytes: Int { state.value.bytes }
    var largest: Int { state.value.largest }

    /// `response` with its body counted as it is read.
    func counting(_ response: StreamedResponse) -> StreamedResponse {
        var counted = response
        counted.body = ResponseBody(Counted(base: response.body, count: self)) { _ in TransportMetrics() }
        return counted
    }

    func add(_ chunk: Data) {
        state.withLock {
            $0.bytes += chunk.count
            $0.largest = max($0.largest, chunk.count)
        }
    }

    private struct Counted: AsyncSequence, Sendable {
        typealias Element = Data
        let base: ResponseBody
        let count: ChunkCount

        func makeAsyncIterator() -> Iterator { Iterator(base: base.makeAsyncIterator(), count: count) }

        struct Iterator: AsyncIteratorProtocol {
            var base: ResponseBody.AsyncIterator
            let count: ChunkCount

            mutating func next() async throws -> Data? {
                guard let chunk = try await base.next() else { return nil }
                count.add(chunk)
                return chunk
            }
        }
    }
}
#endif
