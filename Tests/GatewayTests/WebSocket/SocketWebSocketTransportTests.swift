import Foundation
@testable import Gateway
import GatewayTestSupport
import Testing

/// `SocketWebSocketTransport` against a scripted server on 127.0.0.1, frame by frame.
///
/// The server's side of a handshake runs on a thread started before the client connects
/// (`OffPool.start`): the client's handshake deadline runs from the moment it connects, and a
/// server that first needed a thread of the cooperative pool could miss it while other tests
/// compute there.
@Suite struct SocketWebSocketTransportTests {
    let transport = SocketWebSocketTransport(maxMessageBytes: 1024, handshakeTimeout: .seconds(20))

    /// Connects to `peer`, which accepts the handshake with `subprotocol`.
    func open(_ peer: RawWebSocketPeer, subprotocol: String? = nil,
              transport: SocketWebSocketTransport? = nil) async throws -> any WebSocketConnection {
        let answered = OffPool.start {
            let request = try peer.acceptHandshake()
            try peer.switchProtocols(key: request.fields["sec-websocket-key"] ?? "", subprotocol: subprotocol)
        }
        let connection = try await (transport ?? self.transport)
            .connect(to: peer.url, headers: [:], subprotocols: subprotocol.map { [$0] } ?? [])
        try await answered.value
        return connection
    }

    /// Connects to a peer that answers the handshake with `answer`, and returns the error.
    func refusal(subprotocols: [String] = [], _ answer: @escaping @Sendable (RawWebSocketPeer, String) throws -> Void)
        async throws -> GatewayError {
        let peer = try RawWebSocketPeer()
        let answered = OffPool.start {
            let request = try peer.acceptHandshake()
            try answer(peer, request.fields["sec-websocket-key"] ?? "")
        }
        let error = await #expect(throws: GatewayError.self) {
            _ = try await transport.connect(to: peer.url, headers: [:], subprotocols: subprotocols)
        }
        try await answered.value
        return try #require(error)
    }

    @Test func theHandshakeSendsAKeyTheVersionAndTheSubprotocolsAndKeepsTheChosenOne() async throws {
        let peer = try RawWebSocketPeer()
        let request = OffPool.start { () throws -> (line: String, fields: [String: String]) in
            let request = try peer.acceptHandshake()
            try peer.switchProtocols(key: request.fields["sec-websocket-key"] ?? "", subprotocol: "graphql-transport-ws")
            return request
        }
        let connection = try await transport.connect(to: peer.url, headers: ["Authorization": "Bearer t0k3n"],
                                                     subprotocols: ["graphql-transport-ws", "graphql-ws"])
        let (line, fields) = try await request.value
        #expect(line == "GET /socket?x=1 HTTP/1.1")
        #expect(fields["host"] == "127.0.0.1:\(peer.port)")
        #expect(fields["upgrade"] == "websocket" && fields["connection"] == "Upgrade")
        #expect(fields["sec-websocket-version"] == "13")
        #expect(fields["sec-websocket-protocol"] == "graphql-transport-ws, graphql-ws")
        #expect(fields["authorization"] == "Bearer t0k3n")
        #expect(Data(base64Encoded: fields["sec-websocket-key"] ?? "")?.count == 16)
        #expect(connection.subprotocol == "graphql-transport-ws")
    }

    @Test func anAcceptThatDoesNotMatchTheKeyIsRefused() async throws {
        let error = try await refusal { peer, key in try peer.switchProtocols(key: key, accept: "bm90IHRoZSBoYXNo") }
        #expect(error.kind == .invalidResponse)
        #expect(error.message.contains("Sec-WebSocket-Accept"))
    }

    @Test func aSubprotocolThatWasNotOfferedIsRefused() async throws {
        let error = try await refusal(subprotocols: ["graphql-transport-ws"]) { peer, key in
            try peer.switchProtocols(key: key, subprotocol: "mqtt")
        }
        #expect(error.kind == .invalidResponse)
        #expect(error.message.contains("mqtt"))
    }

    @Test func anotherStatusThan101IsRefusedWithTheResponse() async throws {
        let error = try await refusal { peer, _ in
            try peer.write(Array("HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\nContent-Length: 0\r\n\r\n".utf8))
        }
        #expect(error.kind == .status)
        #expect(error.status == 401)
        #expect(error.response?.headers["WWW-Authenticate"] == "Bearer")
    }

    @Test func aServerThatNeverAnswersTheHandshakeTimesOut() async throws {
        let peer = try RawWebSocketPeer()
        let quick = SocketWebSocketTransport(handshakeTimeout: .milliseconds(300))
        let request = OffPool.start { try peer.acceptHandshake().line }
        let error = await #expect(throws: GatewayError.self) {
            _ = try await quick.connect(to: peer.url, headers: [:], subprotocols: [])
        }
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("ws://127.0.0.1:\(peer.port)/socket") == true)
        #expect(error?.fix?.contains("handshakeTimeout") == true)
        #expect(try await request.value.hasPrefix("GET /socket"))
    }

    @Test func aHostNameThatIsNotResolvedWithinTheHandshakeTimeoutTimesOutNamingTheURL() async throws {
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        var quick = SocketWebSocketTransport(handshakeTimeout: .milliseconds(300))
        quick.resolver = { _, _ in
            release.wait()
            return .failure(TCPSocket.ResolutionFailure(reason: "answered after the test"))
        }
        let error = await #expect(throws: GatewayError.self) {
            _ = try await quick.connect(to: URL(string: "ws://slow.example:8080/graphql")!, headers: [:], subprotocols: [])
        }
        #expect(error?.kind == .timeout)
        #expect(error?.message.contains("ws://slow.example:8080/graphql") == true)
        #expect(error?.message.contains("timed out resolving slow.example, the host of the WebSocket server") == true)
    }

    @Test func wssIsRefusedNamingTheTransportsThatHaveTLS() async throws {
        let error = await #expect(throws: GatewayError.self) {
            _ = try await transport.connect(to: URL(string: "https://api.example.com/graphql")!, headers: [:],
                                            subprotocols: [])
        }
        #expect(error?.kind == .unsupported)
        #expect(error?.fix?.contains("NIOWebSocketTransport") == true)
        #expect(error?.fix?.contains("URLSessionWebSocketTransport") == true)
    }

    @Test func aFragmentedTextMessageArrivesWholeAndAPingBetweenItsFragmentsIsPonged() async throws {
        let peer = try RawWebSocketPeer()
        let connection = try await open(peer)
        let pong = try await OffPool.blocking { () throws -> RawWebSocketPeer.Frame in
            try peer.write(RawWebSocketPeer.frame(1, Array("Hel".utf8), fin: false))
            try peer.write(RawWebSocketPeer.frame(9, Array("p1".utf8)))
            try peer.write(RawWebSocketPeer.frame(0, Array("lo, ".utf8), fin: false))
            try peer.write(RawWebSocketPeer.frame(0, Array("wörld".utf8)))
            return try peer.readFrame()
        }
        #expect(pong == RawWebSocketPeer.Frame(fin: true, opcode: 0xA, payload: Array("p1".utf8), masked: true))
        var events = connection.events.makeAsyncIterator()
        #expect(await events.next() == .text("Hello, wörld"))
    }

    @Test(arguments: [2, 1000, 70_000])
    func aSentMessageIsOneMaskedTextFrame(length: Int) async throws {
        let peer = try RawWebSocketPeer()
        let connection = try await open(peer, transport: SocketWebSocketTransport(maxMessageBytes: 100_000))
        let text = String(repeating: "ab", count: length / 2)
        try await connection.send(text)
        let frame = try await OffPool.blocking { try peer.readFrame() }
        #expect(frame.fin && frame.opcode == 1 && frame.masked)
        #expect(frame.text == text)
    }

    @Test func aMessageOverTheLimitEndsTheConnectionWith1009AndASendOverItThrows() async throws {
        let peer = try RawWebSocketPeer()
        let connection = try await open(peer)
        let error = await #expect(throws: GatewayError.self) { try await connection.send(String(repeating: "x", count: 2000)) }
        #expect(error?.kind == .responseTooLarge)
        let close = try await OffPool.blocking { () throws -> RawWebSocketPeer.Frame in
            try peer.write(RawWebSocketPeer.frame(1, [UInt8](repeating: 0x61, count: 600), fin: false))
            try peer.write(RawWebSocketPeer.frame(0, [UInt8](repeating: 0x61, count: 600)))
            return try peer.readFrame()
        }
        #expect(close.closeCode == 1009)
        var events = connection.events.makeAsyncIterator()
        let last = try #require(await events.next())
        guard case .closed(let closed) = last else { Issue.record("expected a close, got \(last)"); return }
        #expect(closed.code == .messageTooBig)
        #expect(await events.next() == nil)
    }

    @Test(arguments: [
        (RawWebSocketPeer.frame(2, [1, 2, 3]), UInt16(1003)),
        (RawWebSocketPeer.frame(1, [0xC3, 0x28]), UInt16(1007)),
        (RawWebSocketPeer.frame(0, Array("orphan".utf8)), UInt16(1002)),
        ([0x81, 0x82, 1, 2, 3, 4, 0x69, 0x6B], UInt16(1002)),
    ])
    func framesTheProtocolForbidsEndTheConnectionWithTheirCode(frame: [UInt8], code: UInt16) async throws {
        let peer = try RawWebSocketPeer()
        let connection = try await open(peer)
        let close = try await OffPool.blocking { () throws -> RawWebSocketPeer.Frame in
            try peer.write(frame)
            return try peer.readFrame()
        }
        #expect(close.closeCode == code)
        var events = connection.events.makeAsyncIterator()
        guard case .closed(let closed)? = await events.next() else { Issue.record("expected a close"); return }
        #expect(closed.code.rawValue == code)
    }

    @Test func theServersCloseIsEchoedAndIsTheLastEvent() async throws {
        let peer = try RawWebSocketPeer()
        let connection = try await open(peer)
        let echo = try await OffPool.blocking { () throws -> RawWebSocketPeer.Frame in
            try peer.write(RawWebSocketPeer.frame(1, Array("last words".utf8)))
            try peer.write(RawWebSocketPeer.frame(8, RawWebSocketPeer.closePayload(4401, "Unauthorized")))
            return try peer.readFrame()
        }
        #expect(echo.closeCode == 4401 && echo.masked)
        var events = connection.events.makeAsyncIterator()
        #expect(await events.next() == .text("last words"))
        #expect(await events.next() == .closed(WebSocketClose(code: .unauthorized, reason: "Unauthorized")))
        #expect(await events.next() == nil)
        let error = await #expect(throws: GatewayError.self) { try await connection.send("after") }
        #expect(error?.kind == .transport)
    }

    @Test func closingSendsTheCodeAndReasonAndEndsWhenTheServerAnswers() async throws {
        let peer = try RawWebSocketPeer()
        let connection = try await open(peer)
        await connection.close(code: .normalClosure, reason: "bye")
        let sent = try await OffPool.blocking { () throws -> RawWebSocketPeer.Frame in
            let frame = try peer.readFrame()
            try peer.write(RawWebSocketPeer.frame(8, RawWebSocketPeer.closePayload(1000, "bye")))
            return frame
        }
        #expect(sent.closeCode == 1000 && sent.payload.dropFirst(2).elementsEqual("bye".utf8))
        var events = connection.events.makeAsyncIterator()
        #expect(await events.next() == .closed(WebSocketClose(code: .normalClosure, reason: "bye")))
        #expect(await events.next() == nil)
        await connection.close(code: .normalClosure, reason: "again")
    }

    @Test func aConnectionDroppedWithoutACloseEndsAsAbnormal() async throws {
        let peer = try RawWebSocketPeer()
        let connection = try await open(peer)
        peer.drop()
        var events = connection.events.makeAsyncIterator()
        guard case .closed(let closed)? = await events.next() else { Issue.record("expected a close"); return }
        #expect(closed.code == .abnormalClosure)
    }
}
