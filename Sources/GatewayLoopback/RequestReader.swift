import Foundation

/// Why a request could not be read from a connection.
enum RequestReadError: Error {
    /// The peer closed the connection (or it failed) before a whole request arrived.
    case closed
    /// The bytes are not a valid HTTP/1.1 request: answer with this status and close.
    case rejected(status: Int, reason: String)
}

/// The request line and header fields of one request.
struct RequestHead {
    var method: String
    var target: String
    var version: String
    var headers: LoopbackHeaders
}

/// Reads HTTP/1.1 requests from a socket: the head, then a body framed by `Content-Length` or
/// chunked transfer coding. Enforces limits so that a hostile client cannot make it hold
/// unbounded memory.
final class RequestReader {
    static let maxHeadBytes = 64 * 1024
    static let maxChunkLineBytes = 4 * 1024

    private let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)

    init(fd: Int32) { self.fd = fd }

    private var available: Int { buffer.count - start }

    /// Reads more bytes into the buffer. Returns `false` at end of stream or on an error.
    private func fill() -> Bool {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        let count = scratch.withUnsafeMutableBytes { Socket.receive(fd, into: $0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: scratch[0..<count])
        return true
    }

    /// Reads the next request head.
    ///
    /// - Returns: the head, or `nil` when the peer closed the connection cleanly between requests.
    func readHead() throws(RequestReadError) -> RequestHead? {
        var searchFrom = start
        while true {
            // Empty lines before a request line are allowed (RFC 9112 §2.2).
            while available >= 2 && buffer[start] == 13 && buffer[start + 1] == 10 {
                start += 2
                searchFrom = max(searchFrom, start)
            }
            if let end = findHeadEnd(from: searchFrom), end - start <= RequestReader.maxHeadBytes {
                let bytes = Array(buffer[start..<end])
                start = end + 4
                return try RequestReader.parseHead(bytes)
            }
            if available > RequestReader.maxHeadBytes {
                throw .rejected(status: 431, reason: "the request head is longer than \(RequestReader.maxHeadBytes) bytes")
            }
            // `fill` may move the unread bytes to the front, so remember the offset from `start`.
            let offset = max(0, buffer.count - 3 - start)
            guard fill() else {
                if available == 0 { return nil }
                throw .closed
            }
            searchFrom = start + offset
        }
    }

    private func findHeadEnd(from index: Int) -> Int? {
        var i = index
        while i + 3 < buffer.count {
            if buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 { return i }
            i += 1
        }
        return nil
    }

    /// Reads exactly `count` bytes of body.
    func readBody(count: Int) throws(RequestReadError) -> Data {
        while available < count {
            guard fill() else { throw .closed }
        }
        let body = Data(buffer[start..<(start + count)])
        start += count
        return body
    }

    /// Reads a chunked body (RFC 9112 §7.1), discarding chunk extensions and trailer fields.
    func readChunkedBody(limit: Int) throws(RequestReadError) -> Data {
        var body = Data()
        while true {
            let line = try readLine()
            let sizeText = line.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let digits = sizeText.trimmingSpaces()
            guard !digits.isEmpty, digits.count <= 15, digits.utf8.allSatisfy(RequestReader.isHexDigit),
                  let size = Int(digits, radix: 16) else {
                throw .rejected(status: 400, reason: "invalid chunk size line \"\(line.prefix(40))\"")
            }
            if size == 0 { break }
            guard body.count + size <= limit else {
                throw .rejected(status: 413, reason: "the chunked body is larger than the limit of \(limit) bytes")
            }
            body.append(try readBody(count: size))
            let end = try readBody(count: 2)
            guard end == Data([13, 10]) else {
                throw .rejected(status: 400, reason: "a chunk is not followed by CRLF")
            }
        }
        // Trailer section: lines until an empty one.
        var trailerBytes = 0
        while true {
            let line = try readLine()
            if line.isEmpty { return body }
            trailerBytes += line.utf8.count
            if trailerBytes > RequestReader.maxHeadBytes {
                throw .rejected(status: 431, reason: "the chunked trailer section is too long")
            }
        }
    }

    /// Reads one CRLF-terminated line (without the CRLF).
    private func readLine() throws(RequestReadError) -> String {
        var searchFrom = start
        while true {
            var i = searchFrom
            while i + 1 < buffer.count {
                if buffer[i] == 13 && buffer[i + 1] == 10 {
                    let line = String(decoding: buffer[start..<i], as: UTF8.self)
                    start = i + 2
                    return line
                }
                i += 1
            }
            if available > RequestReader.maxChunkLineBytes {
                throw .rejected(status: 400, reason: "a chunk line is longer than \(RequestReader.maxChunkLineBytes) bytes")
            }
            let offset = max(0, buffer.count - 1 - start)
            guard fill() else { throw .closed }
            searchFrom = start + offset
        }
    }
}

extension RequestReader {
    /// Parses the request line and header fields (without the final empty line).
    static func parseHead(_ bytes: [UInt8]) throws(RequestReadError) -> RequestHead {
        func reject(_ reason: String) -> RequestReadError { .rejected(status: 400, reason: reason) }
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = 0
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 13 {
                guard i + 1 < bytes.count, bytes[i + 1] == 10 else { throw reject("a bare CR in the request head") }
                lines.append(bytes[lineStart..<i])
                i += 2
                lineStart = i
                continue
            }
            if byte == 10 { throw reject("a bare LF in the request head") }
            if byte == 0 || (byte < 32 && byte != 9) || byte == 127 {
                throw reject("a control character (0x\(String(byte, radix: 16))) in the request head")
            }
            i += 1
        }
        lines.append(bytes[lineStart..<bytes.count])

        let requestLine = String(decoding: lines[0], as: UTF8.self)
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
            throw reject("the request line \"\(requestLine.prefix(80))\" is not METHOD SP TARGET SP VERSION")
        }
        let method = String(parts[0])
        guard method.utf8.allSatisfy(isTokenByte) else { throw reject("the method \"\(method.prefix(40))\" is not a token") }
        var target = String(parts[1])
        guard !target.contains("\t") else { throw reject("the request target contains a tab") }
        if target.hasPrefix("http://") || target.hasPrefix("https://") {
            // Absolute form: keep the path and query.
            let afterScheme = target[target.index(target.startIndex, offsetBy: target.hasPrefix("https") ? 8 : 7)...]
            target = afterScheme.firstIndex(of: "/").map { String(afterScheme[$0...]) } ?? "/"
        } else if !(target.hasPrefix("/") || (target == "*" && method == "OPTIONS")) {
            throw reject("the request target \"\(target.prefix(80))\" does not start with /")
        }
        let version = String(parts[2])
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            throw reject("the HTTP version \"\(version.prefix(20))\" is not HTTP/1.1 or HTTP/1.0")
        }

        var headers = LoopbackHeaders()
        for line in lines.dropFirst() {
            guard let first = line.first else { throw reject("an empty header line") }
            if first == 32 || first == 9 { throw reject("obsolete line folding in a header field") }
            guard let colon = line.firstIndex(of: 58) else {
                throw reject("the header line \"\(String(decoding: line.prefix(60), as: UTF8.self))\" has no colon")
            }
            let name = line[line.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
                throw reject("the header name \"\(String(decoding: name.prefix(60), as: UTF8.self))\" is not a token")
            }
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces()
            headers.add(String(decoding: name, as: UTF8.self), value)
        }
        return RequestHead(method: method, target: target, version: version, headers: headers)
    }

    /// How the body of a request with these headers is framed.
    enum BodyFraming: Equatable {
        case none
        case length(Int)
        case chunked
    }

    /// Works out the body framing, rejecting ambiguous or invalid framing (RFC 9112 §6).
    static func framing(of head: RequestHead, limit: Int) throws(RequestReadError) -> BodyFraming {
        let encodings = head.headers.values(for: "Transfer-Encoding")
        let lengths = head.headers.values(for: "Content-Length")
        if !encodings.isEmpty {
            guard lengths.isEmpty else {
                throw .rejected(status: 400, reason: "both Transfer-Encoding and Content-Length are present")
            }
            let codings = encodings.flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces().lowercased() }
            guard codings == ["chunked"] else {
                throw .rejected(status: 400, reason: "unsupported transfer coding \"\(encodings.joined(separator: ", "))\"")
            }
            return .chunked
        }
        guard !lengths.isEmpty else { return .none }
        let values = Set(lengths.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }.map { $0.trimmingSpaces() })
        guard values.count == 1, let text = values.first, !text.isEmpty, text.count <= 18,
              text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let length = Int(text) else {
            throw .rejected(status: 400, reason: "invalid Content-Length \"\(lengths.joined(separator: ", ").prefix(60))\"")
        }
        guard length <= limit else {
            throw .rejected(status: 413, reason: "the body of \(length) bytes is larger than the limit of \(limit) bytes")
        }
        return length == 0 ? .none : .length(length)
    }

    /// Whether a byte is an ASCII hexadecimal digit.
    static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 70) || (byte >= 97 && byte <= 102)
    }

    /// Whether a byte is a `tchar` (RFC 9110 §5.6.2).
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
