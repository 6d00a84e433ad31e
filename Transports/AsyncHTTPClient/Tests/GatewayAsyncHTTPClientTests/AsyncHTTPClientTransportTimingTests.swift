import AsyncHTTPClient
import Foundation
import Gateway
@testable import GatewayAsyncHTTPClient
import GatewayTesting
import Testing

/// The idle timeout and the deadline once the head has arrived, on both ways of keeping time: the
/// client's read timeout (the transport's own client, the configured timeout) and the exchange's
/// own timer (a borrowed client).
@Suite struct AsyncHTTPClientTransportTimingTests {
    enum Timekeeper: CaseIterable { case client, exchange }

    /// A transport whose requests with a 30 s timeout are timed by `timekeeper`, and how to shut it down.
    static func transport(_ timekeeper: Timekeeper) -> (AsyncHTTPClientTransport, @Sendable () async throws -> Void) {
        switch timekeeper {
        case .client:
            let transport = AsyncHTTPClientTransport(configuration: .init(timeout: .seconds(30)))
            return (transport, { try await transport.shutdown() })
        case .exchange:
            let client = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                configuration: AsyncHTTPClientTransport.clientConfiguration(for: .init()))
            return (AsyncHTTPClientTransport(client: client, configuration: .init(timeout: .seconds(30))),
                    { try await client.shutdown() })
        }
    }

    @Test(arguments: Timekeeper.allCases)
    func aDeadlineThatPassesMidBodyEndsTheExchange(_ timekeeper: Timekeeper) async throws {
        let server = try LoopbackServer { _ in
            LoopbackResponse(body: Data(count: 10_000), fault: .throttleBody(chunk: 1_000, every: .seconds(60)))
        }
        defer { server.shutdown() }
        let (transport, shutdown) = Self.transport(timekeeper)
        let started = ContinuousClock.now
        let request = try TransportConformance.request(
            server, "/slow", timeout: .seconds(30), deadline: started + .milliseconds(500))
        let response = try await transport.send(request)
        let error = await #expect(throws: GatewayError.self) {
            _ = try await response.collect(upTo: request.maxResponseBytes)
        }
        try await shutdown()
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("deadline") == true, "\(String(describing: error))")
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test func aReaderSlowerThanTheIdleTimeoutIsNotTimedOut() async throws {
        let payload = TransportConformance.bytes(2_000_000, seed: 7)
        let server = try LoopbackServer { _ in .data(payload) }
        defer { server.shutdown() }
        let (transport, shutdown) = Self.transport(.exchange)
        let request = try TransportConformance.request(server, "/large", timeout: .seconds(1))
        var received = Data()
        var chunks = try await transport.send(request).body.makeAsyncIterator()
        if let first = try await chunks.next() { received.append(first) }
        // The reader, not the network, is slow: the client has stopped reading until it asks
        // again, so the pause is no idle time. (The pause is what is tested, not a wait for something.)
        try await Task.sleep(for: .seconds(2.5))
        while let chunk = try await chunks.next() { received.append(chunk) }
        try await shutdown()
        #expect(received == payload)
    }

    @Test func aBodyThatStallsEndsInTheExchangesIdleTimeout() async throws {
        let server = try LoopbackServer { _ in
            LoopbackResponse(body: Data(count: 10_000), fault: .throttleBody(chunk: 1_000, every: .seconds(60)))
        }
        defer { server.shutdown() }
        let (transport, shutdown) = Self.transport(.exchange)
        let request = try TransportConformance.request(server, "/slow", timeout: .milliseconds(500))
        let started = ContinuousClock.now
        let error = await #expect(throws: GatewayError.self) {
            _ = try await transport.send(request).collect(upTo: request.maxResponseBytes)
        }
        try await shutdown()
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("per-request timeout") == true, "\(String(describing: error))")
        #expect(ContinuousClock.now - started < .seconds(30))
    }
}
