import Foundation
@testable import Gateway
import GatewayTestSupport
import Testing

/// `SocketWebSocketTransport` against uvicorn's WebSocket server (the `websockets` package) and
/// strawberry-graphql over graphql-transport-ws, on 127.0.0.1.
@Suite(.requires(.strawberry) { try await WebSocketPeer.isRunning() })
struct SocketWebSocketServerTests {
    let transport = SocketWebSocketTransport(handshakeTimeout: .seconds(30))

    @Test func anEchoServerAnswersEachMessageAndClosesWithItsCodeAndReason() async throws {
        let connection = try await transport.connect(to: try await WebSocketPeer.url("/echo"), headers: [:],
                                                     subprotocols: ["echo"])
        #expect(connection.subprotocol == "echo")
        var events = connection.events.makeAsyncIterator()
        let large = String(repeating: "0123456789", count: 20_000)
        for message in ["hello", "wörld ✓", large] {
            try await connection.send(message)
            #expect(await events.next() == .text(message))
        }
        try await connection.send("close 4000 done for today")
        #expect(await events.next() == .closed(WebSocketClose(code: WebSocketCloseCode(rawValue: 4000),
                                                              reason: "done for today")))
        #expect(await events.next() == nil)
    }

    @Test func theClientsCloseIsAnswered() async throws {
        let connection = try await transport.connect(to: try await WebSocketPeer.url("/echo"), headers: [:],
                                                     subprotocols: [])
        #expect(connection.subprotocol == nil)
        await connection.close(code: .normalClosure, reason: "bye")
        var events = connection.events.makeAsyncIterator()
        guard case .closed(let closed)? = await events.next() else { Issue.record("expected a close"); return }
        #expect(closed.code == .normalClosure)
        #expect(await events.next() == nil)
    }

    @Test func aThousandSubscriptionEventsFromStrawberryArriveInOrder() async throws {
        let client = GraphQLWebSocketClient(url: try await WebSocketPeer.url("/graphql"), transport: transport,
                                            options: .init(keepAlive: nil))
        var counts: [Int] = []
        for try await result in client.subscribe(.init(query: "subscription { count(to: 1000) }")) {
            let object = try #require(try JSONSerialization.jsonObject(with: result) as? [String: Any])
            let data = try #require(object["data"] as? [String: Any])
            counts.append(try #require(data["count"] as? Int))
        }
        #expect(counts == Array(1...1000))
    }

    @Test func theDefaultTransportOnLinuxOpensWsURLs() async throws {
        #if canImport(FoundationNetworking)
        #expect(GraphQLWebSocketClient.defaultTransport() is SocketWebSocketTransport)
        let client = GraphQLWebSocketClient(url: try await WebSocketPeer.url("/graphql"), options: .init(keepAlive: nil))
        var results: [Data] = []
        for try await result in client.subscribe(.init(query: "subscription { count(to: 3) }")) { results.append(result) }
        #expect(results.count == 3)
        #else
        #expect(GraphQLWebSocketClient.defaultTransport() is URLSessionWebSocketTransport)
        #endif
    }
}
