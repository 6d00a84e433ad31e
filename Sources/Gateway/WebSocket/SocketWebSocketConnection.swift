import Foundation

/// One WebSocket connection over a `TCPSocket`: a thread of its own reads frames into `events`
/// (never a thread of the cooperative pool); sends write masked frames under a lock.
///
/// The socket is read only by the reader thread, written only under `state`'s lock, and closed
/// by the reader thread, under that lock, when the connection ends.
final class SocketWebSocketConnection: WebSocketConnection, @unchecked Sendable {
    private struct State {
        /// The close this side sent, once it sent one.
        var sentClose: WebSocketClose?
        /// Whether the connection ended and its socket is closed.
        var ended = false
    }

    let subprotocol: String?
    let events: AsyncStream<WebSocketEvent>
    private let output: AsyncStream<WebSocketEvent>.Continuation
    private let socket: TCPSocket
    private let state = Locked(State())
    private let maxMessageBytes: Int
    private let sendTimeout: Duration
    private let closeTimeout: Duration

    /// Starts reading from `socket`, whose handshake is done; `received` holds the bytes that
    /// came after the handshake's answer.
    init(socket: TCPSocket, subprotocol: String?, received: [UInt8], maxMessageBytes: Int,
         sendTimeout: Duration, closeTimeout: Duration) {
        self.socket = socket
        self.subprotocol = subprotocol
        self.maxMessageBytes = maxMessageBytes
        self.sendTimeout = sendTimeout
        self.closeTimeout = closeTimeout
        (events, output) = AsyncStream.makeStream(of: WebSocketEvent.self)
        let reader = WebSocketFrameReader(maxMessageBytes: maxMessageBytes, received: received)
        let thread = Thread { [self] in read(with: reader) }
        thread.name = "Gateway WebSocket \(socket.address)"
        thread.start()
    }

    func send(_ text: String) async throws {
        let payload = Array(text.utf8)
        guard payload.count <= maxMessageBytes else {
            throw GatewayError(.responseTooLarge,
                               "the WebSocket message of \(payload.count) bytes is larger than the \(maxMessageBytes) allowed",
                               fix: "send smaller messages, or raise SocketWebSocketTransport's maxMessageBytes")
        }
        try write(.text, payload)
    }

    func close(code: WebSocketCloseCode, reason: String) async {
        let first = state.withLock { state -> Bool in
            guard state.sentClose == nil, !state.ended else { return false }
            state.sentClose = WebSocketClose(code: code, reason: reason)
            return true
        }
        guard first else { return }
        do {
            try write(.close, WebSocketFrame.closePayload(code, reason: reason), closing: true)
        } catch {
            shutDown()
            return
        }
        // A server that does not answer the close in a short while is cut off.
        let timeout = closeTimeout
        Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.shutDown()
        }
    }

    /// Writes one frame; `closing` writes even after a close was sent (the close itself).
    private func write(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8], closing: Bool = false) throws(GatewayError) {
        let frame = WebSocketFrame.encode(opcode, payload, mask: WebSocketFrame.randomMask())
        let deadline = ContinuousClock.now + sendTimeout
        let refusal = state.withLock { state -> GatewayError? in
            if state.ended { return GatewayError.webSocketClosed("the connection has ended") }
            if state.sentClose != nil && !closing { return GatewayError.webSocketClosed("a close frame was sent") }
            do throws(TCPSocket.Failure) {
                try socket.send(frame, deadline: deadline)
                return nil
            } catch {
                return GatewayError(error.kind == .timeout ? .timeout : .transport,
                                    "the WebSocket message could not be sent: \(error.message)")
            }
        }
        if let refusal { throw refusal }
    }

    /// Wakes the reader, which ends the connection, unless it ended already.
    private func shutDown() {
        state.withLock { state in
            if !state.ended { socket.shutDown() }
        }
    }

    /// The reader thread: frames until the close, a violation or the end of the socket.
    private func read(with reader: WebSocketFrameReader) {
        var reader = reader
        var buffer = [UInt8](repeating: 0, count: 65_536)
        do {
            while true {
                while let incoming = try reader.next() {
                    switch incoming {
                    case .text(let text):
                        output.yield(.text(text))
                    case .ping(let payload):
                        try? write(.pong, payload)
                    case .pong:
                        break
                    case .close(let close):
                        let echo = state.withLock { $0.sentClose == nil }
                        if echo { try? write(.close, WebSocketFrame.closePayload(close.code, reason: ""), closing: true) }
                        end(close)
                        return
                    }
                }
                let count = try buffer.withUnsafeMutableBytes { bytes throws(TCPSocket.Failure) in
                    try socket.receive(into: bytes, deadline: .now + .seconds(365 * 86_400))
                }
                buffer.withUnsafeBytes { reader.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            }
        } catch let violation as WebSocketViolation {
            let first = state.withLock { $0.sentClose == nil }
            if first {
                try? write(.close, WebSocketFrame.closePayload(violation.code, reason: violation.reason), closing: true)
            }
            end(WebSocketClose(code: violation.code, reason: violation.reason))
        } catch {
            let sent = state.withLock { $0.sentClose }
            let reason = (error as? TCPSocket.Failure)?.message ?? "\(error)"
            end(sent ?? WebSocketClose(code: .abnormalClosure, reason: reason))
        }
    }

    /// Closes the socket and delivers the last event.
    private func end(_ close: WebSocketClose) {
        state.withLock { state in
            state.ended = true
            socket.close()
        }
        output.yield(.closed(close))
        output.finish()
    }
}
