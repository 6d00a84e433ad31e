import Foundation
import Gateway
@testable import GatewayAsyncHTTPClient
import Testing

/// `NIOWebSocketTransport` frame by frame, against the websockets package's server.
@Suite(.requiresWebSocketPeer) struct NIOWebSocketTransportTests {
    func peer() async throws -> PythonPeer { try #require(try await PythonPeer.webSocket.value) }

    /// Every event of a connection until its close.
    func events(of connection: any WebSocketConnection) async -> [WebSocketEvent] {
        var all: [WebSocketEvent] = []
        for await event in connection.events { all.append(event) }
        return all
    }

    /// The close code and reason the peer's script `name` received, as the peer's JSON.
    func closeSeen(by name: String) async throws -> String {
        let connection = try await NIOWebSocketTransport().connect(to: try await peer().url("/closes?\(name)"),
                                                                   headers: [:], subprotocols: [])
        let first = await events(of: connection).first
        guard case .text(let text)? = first else { return "no message: \(String(describing: first))" }
        return text
    }

    @Test func aFragmentedMessageArrivesWholeAndTheServersCloseIsDelivered() async throws {
        let connection = try await NIOWebSocketTransport().connect(to: try await peer().url("/fragments"), headers: [:],
                                                                   subprotocols: [])
        var iterator = connection.events.makeAsyncIterator()
        #expect(await iterator.next() == .text("fragmented message"))
        #expect(await iterator.next() == .text("whole"))
        try await connection.send("hi")
        #expect(await iterator.next() == .text("echo:hi"))
        #expect(await iterator.next() == .closed(WebSocketClose(code: WebSocketCloseCode(rawValue: 4000), reason: "done")))
        #expect(await iterator.next() == nil)
    }

    @Test func aPingIsAnsweredWithAPong() async throws {
        let connection = try await NIOWebSocketTransport().connect(to: try await peer().url("/ping"), headers: [:],
                                                                   subprotocols: [])
        #expect(await events(of: connection) == [
            .text("pong received"), .closed(WebSocketClose(code: WebSocketCloseCode(rawValue: 4000), reason: "done")),
        ])
    }

    @Test func aMessagePastTheLimitClosesTheConnectionWith1009() async throws {
        let transport = NIOWebSocketTransport(configuration: .init(maxMessageBytes: 1024))
        let connection = try await transport.connect(to: try await peer().url("/big"), headers: [:], subprotocols: [])
        let all = await events(of: connection)
        #expect(all.count == 1)
        guard case .closed(let close)? = all.first else {
            Issue.record("expected a close, got \(all)")
            return
        }
        #expect(close.code == .messageTooBig)
        #expect(try await closeSeen(by: "big").hasPrefix("[1009,"))
    }

    @Test func aBinaryMessageIsRefusedWith1003() async throws {
        let connection = try await NIOWebSocketTransport().connect(to: try await peer().url("/binary"), headers: [:],
                                                                   subprotocols: [])
        let all = await events(of: connection)
        let codes = all.map { event -> WebSocketCloseCode? in
            if case .closed(let close) = event { return close.code }
            return nil
        }
        #expect(codes == [.unsupportedData])
        #expect(try await closeSeen(by: "binary").hasPrefix("[1003,"))
    }

    @Test func closingSendsTheCodeAndReasonAndEndsWithTheServersAnswer() async throws {
        let connection = try await NIOWebSocketTransport().connect(to: try await peer().url("/echo"), headers: [:],
                                                                   subprotocols: [])
        var iterator = connection.events.makeAsyncIterator()
        try await connection.send("ünïcode ✓")
        #expect(await iterator.next() == .text("ünïcode ✓"))
        await connection.close(code: .normalClosure, reason: "bye")
        #expect(await iterator.next() == .closed(WebSocketClose(code: .normalClosure, reason: "bye")))
        #expect(try await closeSeen(by: "echo") == #"[1000, "bye"]"#)
        await #expect(throws: GatewayError.self) { try await connection.send("after the close") }
    }

    @Test func aRefusedHandshakeThrowsItsStatus() async throws {
        let url = try await peer().url("/refuse")
        let failure = try await #require(throws: GatewayError.self) {
            _ = try await NIOWebSocketTransport().connect(to: url, headers: [:], subprotocols: [])
        }
        #expect(failure.kind == .status)
        #expect(failure.status == 401)
    }

    @Test func aURLThatIsNotWebSocketIsRefused() async throws {
        let failure = try await #require(throws: GatewayError.self) {
            _ = try await NIOWebSocketTransport().connect(to: URL(string: "mailto:someone@example.com")!, headers: [:],
                                                          subprotocols: [])
        }
        #expect(failure.kind == .invalidRequest)
    }
}
