/// Reads a server's frames from the bytes received (RFC 6455 §5): text messages put together from
/// their fragments, control frames as they come, each checked against the protocol and the size
/// limit.
struct WebSocketFrameReader {
    /// What the reader found.
    enum Incoming: Hashable {
        /// One whole text message.
        case text(String)
        /// A ping and its payload, for the pong.
        case ping([UInt8])
        /// A pong (unsolicited or not: nothing to do).
        case pong
        /// The server's close frame.
        case close(WebSocketClose)
    }

    /// The largest message, whole: a larger one ends the connection with `1009`.
    let maxMessageBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// The fragments of a text message so far, `nil` between messages.
    private var message: [UInt8]?

    init(maxMessageBytes: Int, received: [UInt8] = []) {
        self.maxMessageBytes = maxMessageBytes
        buffer = received
    }

    /// Adds received bytes.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 65_536 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next thing the bytes so far hold; `nil` until more arrive.
    ///
    /// - Throws: `WebSocketViolation` when the server broke the protocol (`1002`), sent binary
    ///   (`1003`), text that is not UTF-8 (`1007`) or a message over the limit (`1009`).
    mutating func next() throws(WebSocketViolation) -> Incoming? {
        while let frame = try nextFrame() {
            if let incoming = try take(frame) { return incoming }
        }
        return nil
    }

    private typealias Frame = (fin: Bool, opcode: WebSocketFrame.Opcode, payload: [UInt8])

    private mutating func nextFrame() throws(WebSocketViolation) -> Frame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start], second = buffer[start + 1]
        guard first & 0x70 == 0 else { throw violation(.protocolError, "a frame with reserved bits set") }
        guard let opcode = WebSocketFrame.Opcode(rawValue: first & 0x0F) else {
            throw violation(.protocolError, "a frame with the unknown opcode \(first & 0x0F)")
        }
        guard second & 0x80 == 0 else { throw violation(.protocolError, "a masked frame from the server") }
        var header = 2
        var length = UInt64(second & 0x7F)
        if length >= 126 {
            let extra = length == 126 ? 2 : 8
            guard available >= 2 + extra else { return nil }
            length = 0
            for index in 0..<extra { length = length << 8 | UInt64(buffer[start + 2 + index]) }
            header += extra
        }
        let fin = first & 0x80 != 0
        if opcode.isControl {
            guard fin, length <= 125 else { throw violation(.protocolError, "a fragmented or long control frame") }
        } else if length > UInt64(maxMessageBytes - (message?.count ?? 0)) {
            throw violation(.messageTooBig, "a message larger than \(maxMessageBytes) bytes")
        }
        guard UInt64(available - header) >= length else { return nil }
        let payloadStart = start + header
        let payload = Array(buffer[payloadStart..<payloadStart + Int(length)])
        start = payloadStart + Int(length)
        return (fin, opcode, payload)
    }

    private mutating func take(_ frame: Frame) throws(WebSocketViolation) -> Incoming? {
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong
        case .close: return .close(try Self.close(frame.payload))
        case .binary: throw violation(.unsupportedData, "binary messages are not accepted")
        case .text:
            guard message == nil else { throw violation(.protocolError, "a new message before the last one ended") }
            message = frame.payload
        case .continuation:
            guard message != nil else { throw violation(.protocolError, "a continuation frame outside a message") }
            message?.append(contentsOf: frame.payload)
        }
        guard frame.fin, let whole = message else { return nil }
        message = nil
        guard let text = String(validating: whole, as: UTF8.self) else {
            throw violation(.invalidPayload, "a text message that is not UTF-8")
        }
        return .text(text)
    }

    /// A close frame's code and reason (§5.5.1); no code reads as `1005`.
    private static func close(_ payload: [UInt8]) throws(WebSocketViolation) -> WebSocketClose {
        guard !payload.isEmpty else { return WebSocketClose(code: .noStatusReceived) }
        guard payload.count >= 2 else { throw WebSocketViolation(code: .protocolError, reason: "a one-byte close frame") }
        guard let reason = String(validating: payload.dropFirst(2), as: UTF8.self) else {
            throw WebSocketViolation(code: .invalidPayload, reason: "a close reason that is not UTF-8")
        }
        return WebSocketClose(code: WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1])), reason: reason)
    }

    private func violation(_ code: WebSocketCloseCode, _ what: String) -> WebSocketViolation {
        WebSocketViolation(code: code, reason: "the server sent \(what)")
    }
}
