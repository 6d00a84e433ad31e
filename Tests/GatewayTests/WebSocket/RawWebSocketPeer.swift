import Foundation
@testable import Gateway
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A scripted WebSocket server on 127.0.0.1, one raw frame at a time: the tests write each
/// byte the server sends and read each frame the client sent. Blocking; answer a handshake
/// through `OffPool.start`, before the client connects, and call the rest through
/// `OffPool.blocking`. Reads give up after 20 s so that a broken client fails the test.
final class RawWebSocketPeer: @unchecked Sendable {
    struct Frame: Hashable {
        var fin: Bool
        var opcode: UInt8
        var payload: [UInt8]
        var masked: Bool
        var text: String { String(decoding: payload, as: UTF8.self) }
        /// A close frame's code.
        var closeCode: UInt16? { opcode == 8 && payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    let port: Int
    private let listener: Int32
    private var fd: Int32 = -1
    private var received: [UInt8] = []

    init() throws {
        #if canImport(Glibc)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(listener, socketAddress, length) == 0 && listen(listener, 4) == 0
                    && getsockname(listener, socketAddress, &length) == 0
            }
        }
        guard listener >= 0, bound else { throw Failure(description: "could not listen: errno \(errno)") }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit {
        if fd >= 0 { _ = close(fd) }
        _ = close(listener)
    }

    var url: URL { URL(string: "ws://127.0.0.1:\(port)/socket?x=1")! }

    /// Accepts one connection and reads its handshake request: the request line, then the
    /// header fields with lower-cased names.
    func acceptHandshake() throws -> (line: String, fields: [String: String]) {
        fd = accept(listener, nil, nil)
        guard fd >= 0 else { throw Failure(description: "accept failed: errno \(errno)") }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while WebSocketHandshake.endOfHead(in: received) == nil { try fill() }
        let end = WebSocketHandshake.endOfHead(in: received) ?? 0
        let lines = String(decoding: received[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        received.removeFirst(end)
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (lines.first ?? "", fields)
    }

    /// Answers the handshake with 101, accepting `key` (or writing `accept` instead).
    func switchProtocols(key: String, subprotocol: String? = nil, accept: String? = nil) throws {
        var head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        head += "Sec-WebSocket-Accept: \(accept ?? WebSocketHandshake.accept(for: key))\r\n"
        if let subprotocol { head += "Sec-WebSocket-Protocol: \(subprotocol)\r\n" }
        try write(Array((head + "\r\n").utf8))
    }

    /// Writes bytes as they are.
    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw Failure(description: "send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// An unmasked server frame.
    static func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if payload.count < 126 {
            bytes.append(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            bytes.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((payload.count >> shift) & 0xFF)) }
        }
        return bytes + payload
    }

    /// A close frame's payload.
    static func closePayload(_ code: UInt16, _ reason: String = "") -> [UInt8] {
        [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8)
    }

    /// Reads the client's next frame, unmasked.
    func readFrame() throws -> Frame {
        try need(2)
        let first = received[0], second = received[1]
        var header = 2
        var length = Int(second & 0x7F)
        if length >= 126 {
            let extra = length == 126 ? 2 : 8
            try need(2 + extra)
            length = 0
            for index in 0..<extra { length = length << 8 | Int(received[2 + index]) }
            header += extra
        }
        let masked = second & 0x80 != 0
        let mask = masked ? Array(received[header..<header + 4]) : [0, 0, 0, 0]
        if masked { header += 4 }
        try need(header + length)
        let payload = received[header..<header + length].enumerated().map { $0.element ^ mask[$0.offset & 3] }
        received.removeFirst(header + length)
        return Frame(fin: first & 0x80 != 0, opcode: first & 0x0F, payload: payload, masked: masked)
    }

    /// Closes the connection without a close frame.
    func drop() {
        _ = close(fd)
        fd = -1
    }

    private func need(_ count: Int) throws {
        while received.count < count { try fill() }
    }

    private func fill() throws {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw Failure(description: count == 0 ? "the client closed" : "recv failed: errno \(errno)") }
        received += buffer[..<count]
    }
}
