import Foundation

/// A `WebSocketTransport` of Gateway's own over POSIX TCP sockets (RFC 6455): `ws://` only, on
/// Linux and Apple platforms, with no dependency. The default on Linux, where Foundation's
/// URLSession cannot open WebSockets (see `GraphQLWebSocketClient.defaultTransport()`).
///
/// It does the opening handshake (checking `Sec-WebSocket-Accept`), offers the subprotocols
/// and keeps the one the server chose, sends masked frames, puts fragmented text messages
/// together, answers ping with pong and closes with a code and reason. Each connection reads on
/// a thread of its own.
///
/// - `wss://` is refused at `connect` (`.unsupported`): TLS needs `NIOWebSocketTransport` from
///   the `Transports/AsyncHTTPClient` package, or `URLSessionWebSocketTransport` on Apple
///   platforms.
/// - A message received larger than `maxMessageBytes` ends the connection (`1009`); a larger
///   one sent throws `.responseTooLarge`. Binary messages end it (`1003`), as the GraphQL over
///   WebSocket protocol sends text only.
/// - Resolving the host name, the TCP connection and the handshake are bounded by
///   `handshakeTimeout` together; past it `connect` throws `.timeout` naming the URL (a
///   resolver that has not answered is left to finish on a thread of its own).
///
/// ```swift
/// let client = GraphQLWebSocketClient(url: URL(string: "ws://127.0.0.1:8000/graphql")!,
///                                     transport: SocketWebSocketTransport())
/// ```
public struct SocketWebSocketTransport: WebSocketTransport {
    /// The largest message, sent or received: 16 MiB by default.
    public let maxMessageBytes: Int
    /// How long resolving the host, the TCP connection and the opening handshake may take
    /// together: 30 s by default.
    public let handshakeTimeout: Duration
    /// How long one send may wait for the socket, and how long the server has to answer a close.
    public let sendTimeout: Duration
    /// What turns the URL's host into addresses: the system's resolver (tests put a slow one here).
    var resolver: TCPSocket.Resolver = TCPSocket.systemResolver

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - maxMessageBytes: the largest message sent or received (at least 1,024).
    ///   - handshakeTimeout: how long resolving, connecting and the opening handshake may take.
    ///   - sendTimeout: how long a send may wait, and a close for its answer.
    public init(maxMessageBytes: Int = 16 * 1024 * 1024, handshakeTimeout: Duration = .seconds(30),
                sendTimeout: Duration = .seconds(10)) {
        self.maxMessageBytes = max(1024, maxMessageBytes)
        self.handshakeTimeout = handshakeTimeout
        self.sendTimeout = sendTimeout
    }

    /// Opens a connection.
    ///
    /// Cancelling the calling task returns `CancellationError` at once; a handshake under way
    /// then ends on its own thread, bounded by `handshakeTimeout`, and its socket is closed.
    ///
    /// - Throws: `.invalidRequest`, `.unsupported` (a `wss` URL), `.status`, `.invalidResponse`,
    ///   `.transport`, `.timeout`, or `CancellationError`.
    @concurrent public func connect(to url: URL, headers: HTTPHeaders, subprotocols: [String]) async throws
        -> any WebSocketConnection {
        guard let target = url.webSocketURL else { throw GatewayError.notWebSocketURL(url) }
        guard target.scheme == "ws" else { throw GatewayError.webSocketNeedsTLS(target) }
        let handshake = try WebSocketHandshake(url: target, headers: headers, subprotocols: subprotocols)
        let opening = Locked<CheckedContinuation<any WebSocketConnection, any Error>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                opening.withLock { $0 = continuation }
                let thread = Thread {
                    let result = Result<any WebSocketConnection, any Error> { try open(handshake) }
                    let waiter = opening.withLock { waiting in
                        defer { waiting = nil }
                        return waiting
                    }
                    guard let waiter else {
                        // The caller went away: the connection is nobody's.
                        if case .success(let connection) = result {
                            Task { await connection.close(code: .goingAway, reason: "") }
                        }
                        return
                    }
                    waiter.resume(with: result)
                }
                thread.name = "Gateway WebSocket handshake"
                // A task cancelled before the continuation was stored: the handler found nothing.
                if Task.isCancelled {
                    let waiter = opening.withLock { waiting in
                        defer { waiting = nil }
                        return waiting
                    }
                    waiter?.resume(throwing: CancellationError())
                    return
                }
                thread.start()
            }
        } onCancel: {
            let waiter = opening.withLock { waiting in
                defer { waiting = nil }
                return waiting
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Connects, sends the handshake and reads its answer, blocking the calling thread.
    private func open(_ handshake: WebSocketHandshake) throws -> SocketWebSocketConnection {
        let deadline = ContinuousClock.now + handshakeTimeout
        let socket: TCPSocket
        var received: [UInt8] = []
        do {
            socket = try TCPSocket.connect(host: handshake.host, port: handshake.port,
                                           service: "the WebSocket server", deadline: deadline, resolver: resolver)
            try socket.send(handshake.request, deadline: deadline)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while WebSocketHandshake.endOfHead(in: received) == nil {
                guard received.count < WebSocketHandshake.maxHeadBytes else {
                    throw GatewayError(.invalidResponse, "the WebSocket handshake's answer head is longer than "
                                       + "\(WebSocketHandshake.maxHeadBytes) bytes")
                }
                let count = try buffer.withUnsafeMutableBytes { bytes throws(TCPSocket.Failure) in
                    try socket.receive(into: bytes, deadline: deadline)
                }
                received.append(contentsOf: buffer[..<count])
            }
        } catch let failure as TCPSocket.Failure {
            let target = Redaction.redactedURL(handshake.url)
            if failure.kind == .timeout {
                throw GatewayError(.timeout, "the WebSocket connection to \(target) could not be opened within "
                                   + "the handshake timeout of \(handshakeTimeout): \(failure.message)",
                                   fix: "check that the server answers WebSocket handshakes at this URL, "
                                      + "or raise SocketWebSocketTransport's handshakeTimeout")
            }
            throw GatewayError(.transport, "the WebSocket connection to \(target) could not be opened: \(failure.message)")
        }
        let end = WebSocketHandshake.endOfHead(in: received) ?? received.count
        let chosen = try handshake.check(head: Array(received[..<end]))
        return SocketWebSocketConnection(socket: socket, subprotocol: chosen, received: Array(received[end...]),
                                         maxMessageBytes: maxMessageBytes, sendTimeout: sendTimeout,
                                         closeTimeout: sendTimeout)
    }
}

extension GatewayError {
    /// A `wss` URL given to `SocketWebSocketTransport`, which has no TLS.
    static func webSocketNeedsTLS(_ url: URL) -> GatewayError {
        GatewayError(.unsupported,
                     "SocketWebSocketTransport opens ws:// connections only, and \(Redaction.redactedURL(url)) needs TLS",
                     fix: "use NIOWebSocketTransport from the Transports/AsyncHTTPClient package for wss:// "
                        + "(or URLSessionWebSocketTransport on Apple platforms), or a ws:// URL")
    }
}
