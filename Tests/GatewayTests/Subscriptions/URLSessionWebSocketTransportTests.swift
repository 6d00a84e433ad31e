import Foundation
import Gateway
import GatewayTesting
import Testing

@Suite struct URLSessionWebSocketTransportTests {
    @Test func aURLThatIsNotWebSocketIsRefusedBeforeAnythingIsSent() async throws {
        let transport = URLSessionWebSocketTransport()
        await #expect {
            _ = try await transport.connect(to: URL(string: "ftp://127.0.0.1/graphql")!, headers: [:], subprotocols: [])
        } throws: { error in
            (error as? GatewayError)?.kind == .invalidRequest
        }
    }

    /// Where the platform's URLSession cannot open WebSockets (Debian's libcurl) the error says
    /// so and names the transport that can; elsewhere the loopback server, which does not
    /// upgrade, refuses the handshake with its status.
    @Test func connectingFailsClearlyWhereThePlatformHasNoWebSockets() async throws {
        let server = try LoopbackServer { _ in .text("no upgrade here", status: 404) }
        defer { server.shutdown() }
        let url = try #require(URL(string: "ws://127.0.0.1:\(server.port)/graphql"))
        let transport = URLSessionWebSocketTransport(handshakeTimeout: .seconds(20))
        let failure = try await #require(throws: GatewayError.self) {
            _ = try await transport.connect(to: url, headers: [:], subprotocols: ["graphql-transport-ws"])
        }
        #expect(failure.kind == .unsupported || failure.kind == .status)
        if failure.kind == .unsupported {
            #expect(failure.message.contains("cannot open WebSockets"))
            #expect(failure.fix?.contains("NIOWebSocketTransport") == true)
        } else {
            #expect(failure.status == 404)
        }
    }

    @Test func aSubscriptionOnSuchAPlatformEndsWithThatError() async throws {
        let server = try LoopbackServer { _ in .text("no upgrade here", status: 404) }
        defer { server.shutdown() }
        let url = try #require(URL(string: "ws://127.0.0.1:\(server.port)/graphql"))
        let client = GraphQLWebSocketClient(url: url, transport: URLSessionWebSocketTransport(),
                                            options: .init(keepAlive: nil))
        let failure = try await #require(throws: GatewayError.self) {
            for try await _ in client.subscribe(.init(query: "subscription { a }")) {}
        }
        #expect(failure.kind == .unsupported || failure.kind == .status)
    }
}
