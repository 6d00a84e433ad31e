#if canImport(Testing)
import Foundation
import Gateway
import Testing

/// The streaming checks of `ResponseBody.forEachChunk`, which a transport may serve from its own
/// thread rather than by iteration.
extension TransportConformance {
    func handsOverInOrder() async throws {
        let payload = Self.bytes(3 << 20, seed: 21)
        for chunked in [false, true] {
            let server = try LoopbackServer { _ in LoopbackResponse(body: payload, chunked: chunked) }
            defer { server.shutdown() }
            let request = try Self.request(server, "/whole")
            let received = Locked((data: Data(), emptyChunks: 0))
            let metrics = try await withTransport { transport in
                let body = try await transport.send(request).body
                try await body.forEachChunk { chunk in
                    received.withLock {
                        $0.data.append(chunk)
                        if chunk.isEmpty { $0.emptyChunks += 1 }
                    }
                }
                return body.metrics
            }
            #expect(Self.difference(received.value.data, from: payload) == nil, "chunked: \(chunked)")
            #expect(received.value.emptyChunks == 0, "chunked: \(chunked)")
            #expect(metrics?.bytesReceived == Int64(payload.count), "chunked: \(chunked)")
        }
    }

    /// The server sends a piece, then nothing for two minutes: only an exchange that ends with
    /// the consumer's error returns before then.
    func consumerFails() async throws {
        let server = try Self.stallingServer(seed: 22)
        defer { server.shutdown() }
        let request = try Self.request(server, "/refused", timeout: .seconds(240))
        let started = ContinuousClock.now
        let outcome: Result<Void, any Error> = try await withTransport { transport in
            let body = try await transport.send(request).body
            do {
                try await body.forEachChunk { _ in throw ConsumerRefusal() }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        #expect(throws: ConsumerRefusal.self) { try outcome.get() }
        #expect(ContinuousClock.now - started < .seconds(60), "the exchange went on after the consumer's error")
    }

    func handOverLimits() async throws {
        let big = try LoopbackServer { _ in LoopbackResponse(body: Data(count: 5 << 20), chunked: true) }
        defer { big.shutdown() }
        let tooLarge = try await handOverFailure(try Self.request(big, "/big", maxResponseBytes: 64 * 1024))
        #expect(tooLarge?.kind == .responseTooLarge)
        #expect(tooLarge?.message.contains("65536") == true)

        let cut = try LoopbackServer { _ in
            LoopbackResponse(body: Self.bytes(200_000), fault: .closeMidBody(afterBytes: 50_000))
        }
        defer { cut.shutdown() }
        let lost = try await handOverFailure(try Self.request(cut, "/cut"))
        #expect(lost?.kind == .transport)
        #expect(lost?.description.contains("connection lost") == true, "\(String(describing: lost))")
    }

    func cancelDuringHandOver() async throws {
        let server = try Self.stallingServer(seed: 23)
        defer { server.shutdown() }
        let request = try Self.request(server, "/stuck", timeout: .seconds(240))
        let (first, result) = try await withTransport { transport in
            let firstPiece = LoopbackGate()
            let received = Locked(0)
            let reading = Task {
                try await transport.send(request).body.forEachChunk { chunk in
                    if received.withLock({ $0 += chunk.count; return $0 >= 4_096 }) { firstPiece.open() }
                }
            }
            await firstPiece.wait()
            reading.cancel()
            return (received.value, await reading.result)
        }
        #expect(first == 4_096)
        #expect(throws: CancellationError.self) { try result.get() }
    }

    /// The error `forEachChunk` throws for `request`, expected to be a `GatewayError`.
    private func handOverFailure(_ request: HTTPRequest) async throws -> GatewayError? {
        try await withTransport { transport in
            await #expect(throws: GatewayError.self) {
                try await transport.send(request).body.forEachChunk { _ in }
            }
        }
    }
}

/// The error a consumer throws in `aConsumersErrorEndsTheExchangeAndComesBackAsItIs`.
private struct ConsumerRefusal: Error {}

#endif
