import Foundation
import GatewayTesting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP client for testing the loopback server byte by byte. Its blocking socket calls
/// run on a dispatch queue of its own, never on Swift concurrency's threads, and every read
/// gives up after ten seconds so that a broken server fails a test instead of hanging it.
final class RawHTTPConnection: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        var code: Int32 = 0
    }

    /// A response as read off the wire.
    struct Response: Sendable {
        var status: Int
        var headers: LoopbackHeaders
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let fd: Int32
    private let queue = DispatchQueue(label: "RawHTTPConnection")
    private let buffer = Buffer()

    /// Unread bytes; only touched on `queue`.
    private final class Buffer: @unchecked Sendable {
        var bytes: [UInt8] = []
    }

    private init(fd: Int32) { self.fd = fd }

    deinit { _ = close(fd) }

    private func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Connects to 127.0.0.1 on `port`.
    static func open(port: Int) async throws -> RawHTTPConnection {
        let fd = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try openSocket(port: port) })
            }
        }
        return RawHTTPConnection(fd: fd)
    }

    private static func openSocket(port: Int) throws -> Int32 {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket failed", code: errno) }
        #if canImport(Darwin)
        var noSignal: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        // Generous: a loaded two-core machine can hold the server's handler back for seconds.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            _ = close(fd)
            throw Failure(description: "connect failed: errno \(code)", code: code)
        }
        return fd
    }

    /// Sends text as UTF-8.
    func write(_ text: String) async throws { try await write(Data(text.utf8)) }

    /// Sends bytes.
    func write(_ data: Data) async throws {
        let fd = self.fd
        try await run {
            var flags: Int32 = 0
            #if canImport(Glibc)
            flags = Int32(MSG_NOSIGNAL)
            #endif
            try data.withUnsafeBytes { raw in
                guard let base = raw.baseAddress else { return }
                var offset = 0
                while offset < raw.count {
                    let sent = send(fd, base + offset, raw.count - offset, flags)
                    guard sent > 0 else { throw Failure(description: "send failed: errno \(errno)", code: errno) }
                    offset += sent
                }
            }
        }
    }

    /// Reads more bytes into the buffer; false at end of stream. Runs on `queue`.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw Failure(description: "recv failed: errno \(errno)", code: errno) }
        if count == 0 { return false }
        buffer.bytes.append(contentsOf: chunk[0..<count])
        return true
    }

    private func take(_ count: Int) throws -> [UInt8] {
        while buffer.bytes.count < count {
            guard try fill() else { throw Failure(description: "end of stream after \(buffer.bytes.count) of \(count) bytes") }
        }
        defer { buffer.bytes.removeFirst(count) }
        return Array(buffer.bytes[0..<count])
    }

    private func line() throws -> String {
        while true {
            if let index = buffer.bytes.firstIndex(of: 10), index > 0, buffer.bytes[index - 1] == 13 {
                let text = String(decoding: buffer.bytes[0..<(index - 1)], as: UTF8.self)
                buffer.bytes.removeFirst(index + 1)
                return text
            }
            guard try fill() else { throw Failure(description: "end of stream inside a line") }
        }
    }

    /// Reads one response; `interim` responses (1xx) are returned like any other.
    func readResponse(toHeadRequest: Bool = false) async throws -> Response {
        try await run { [self] in
            let statusLine = try line()
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0] == "HTTP/1.1", let status = Int(parts[1]) else {
                throw Failure(description: "bad status line \(statusLine)")
            }
            var headers = LoopbackHeaders()
            while true {
                let field = try line()
                if field.isEmpty { break }
                guard let colon = field.firstIndex(of: ":") else { throw Failure(description: "bad header \(field)") }
                headers.add(String(field[..<colon]), field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            var body = Data()
            if toHeadRequest || (100..<200).contains(status) || status == 204 || status == 304 {
                // No body.
            } else if headers["Transfer-Encoding"] == "chunked" {
                while true {
                    guard let size = Int(try line(), radix: 16) else { throw Failure(description: "bad chunk size") }
                    if size == 0 { _ = try line(); break }
                    body.append(contentsOf: try take(size))
                    _ = try take(2)
                }
            } else if let length = headers["Content-Length"].flatMap({ Int($0) }) {
                body = Data(try take(length))
            } else {
                while try fill() {}
                body = Data(buffer.bytes)
                buffer.bytes = []
            }
            return Response(status: status, headers: headers, body: body)
        }
    }

    /// Reads until the server closes the connection.
    ///
    /// - Returns: the bytes that arrived, and the errno when the connection ended with an error
    ///   (such as a reset) instead of an orderly close.
    func readToEnd() async throws -> (data: Data, error: Int32?) {
        try await run { [self] in
            do {
                while try fill() {}
                defer { buffer.bytes = [] }
                return (Data(buffer.bytes), nil)
            } catch let failure as Failure {
                defer { buffer.bytes = [] }
                return (Data(buffer.bytes), failure.code)
            }
        }
    }
}
