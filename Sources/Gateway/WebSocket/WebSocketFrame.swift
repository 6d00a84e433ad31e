/// One WebSocket frame's wire form (RFC 6455 §5.2), as a client writes it: masked, never
/// fragmented.
enum WebSocketFrame {
    /// The frame opcodes (§5.2, §11.8).
    enum Opcode: UInt8 {
        case continuation = 0x0
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case ping = 0x9
        case pong = 0xA

        /// Close, ping and pong (§5.5).
        var isControl: Bool { rawValue & 0x8 != 0 }
    }

    /// A whole frame with FIN set, its payload masked with `mask` (§5.3).
    static func encode(_ opcode: Opcode, _ payload: [UInt8], mask: [UInt8]) -> [UInt8] {
        var frame: [UInt8] = [0x80 | opcode.rawValue]
        frame.reserveCapacity(payload.count + 14)
        switch payload.count {
        case ..<126:
            frame.append(0x80 | UInt8(payload.count))
        case ...0xFFFF:
            frame.append(0x80 | 126)
            frame.append(UInt8(payload.count >> 8))
            frame.append(UInt8(truncatingIfNeeded: payload.count))
        default:
            frame.append(0x80 | 127)
            let length = UInt64(payload.count)
            for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8(truncatingIfNeeded: length >> UInt64(shift))) }
        }
        frame.append(contentsOf: mask)
        for (index, byte) in payload.enumerated() { frame.append(byte ^ mask[index & 3]) }
        return frame
    }

    /// A close frame's payload: the code, then the reason cut to 123 bytes at a character's end;
    /// empty for `1005`, which is never sent.
    static func closePayload(_ code: WebSocketCloseCode, reason: String) -> [UInt8] {
        guard code != .noStatusReceived else { return [] }
        var cut = Substring(reason)
        while cut.utf8.count > 123 { cut = cut.dropLast() }
        return [UInt8(code.rawValue >> 8), UInt8(truncatingIfNeeded: code.rawValue)] + Array(cut.utf8)
    }

    /// Four random bytes for a frame's masking key.
    static func randomMask() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt32
        return [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
    }
}

/// Why a connection ends on the client's side: the server broke the protocol or a limit. The
/// code goes in the client's close frame.
struct WebSocketViolation: Error, Hashable {
    var code: WebSocketCloseCode
    var reason: String
}
