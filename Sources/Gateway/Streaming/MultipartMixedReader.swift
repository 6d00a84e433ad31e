import Foundation
import GraphQLLanguage

/// Reads a `multipart/mixed` body (RFC 2046) part by part as it arrives: the form GraphQL
/// servers stream subscription events and incremental results in.
///
/// The preamble before the first delimiter and the epilogue after the closing one are skipped;
/// each part's header fields are read (lines ended by CRLF or LF) and its body handed out whole
/// when the next delimiter arrives. Servers that stream events send a part's delimiter right
/// after it and the delimiter's line end only with the next part: a JSON part is handed out as
/// soon as `--boundary` has arrived after a complete JSON value, rather than when the next
/// event comes. A part longer than `maxPartBytes` is an error rather than
/// memory without bound, and every byte is scanned once however the body is cut into chunks.
public struct MultipartMixedReader: ChunkReader {
    /// One part: its header fields and its body.
    public struct Part: Sendable, Hashable {
        /// The part's header fields.
        public var headers: HTTPHeaders
        /// The part's body.
        public var body: Data
    }

    /// The default bound of one part: 16 MiB.
    public static let defaultMaxPartBytes = 16 << 20

    /// The boundary, from the `Content-Type` parameter.
    public let boundary: String
    /// The largest part accepted, in bytes.
    public let maxPartBytes: Int
    /// Whether the closing delimiter (`--boundary--`) has been read.
    public private(set) var isClosed = false

    private enum Phase: Sendable {
        case preamble, headers, body
        /// The rest of a delimiter line whose part was already handed out.
        case delimiter
        case epilogue
    }
    private var phase = Phase.preamble
    private var buffer: [UInt8] = []
    /// Where the line being read starts in `buffer`.
    private var start = 0
    /// Where the search for the line's end goes on from.
    private var scanned = 0
    /// Where the body of the part being read starts in `buffer`.
    private var bodyStart = 0
    private var headers = HTTPHeaders()
    /// `--boundary`.
    private let dashBoundary: [UInt8]

    /// Creates a reader for parts separated by `boundary`.
    public init(boundary: String, maxPartBytes: Int = MultipartMixedReader.defaultMaxPartBytes) {
        self.boundary = boundary
        self.maxPartBytes = maxPartBytes
        dashBoundary = Array("--\(boundary)".utf8)
    }

    /// A reader for a response's `Content-Type` (`multipart/mixed; boundary="graphql"`).
    ///
    /// - Throws: `GatewayError` (`.invalidResponse`) when it is not `multipart/mixed` with a boundary.
    public init(contentType: String?, maxPartBytes: Int = MultipartMixedReader.defaultMaxPartBytes) throws {
        guard let contentType, let boundary = Self.boundary(of: contentType) else {
            throw GatewayError(
                .invalidResponse, "the response is not multipart/mixed with a boundary (Content-Type: \(contentType ?? "none"))",
                fix: "ask a server that streams multipart/mixed; check the request's Accept header")
        }
        self.init(boundary: boundary, maxPartBytes: maxPartBytes)
    }

    /// The `boundary` parameter of a `multipart/mixed` media type, unquoted; `nil` for another type.
    public static func boundary(of contentType: String) -> String? {
        let type = contentType.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
        guard type?.lowercased() == "multipart/mixed" else { return nil }
        return MultipartBoundary.parameter(in: contentType)
    }

    public mutating func read(_ chunk: Data) throws -> [Part] {
        buffer.append(contentsOf: chunk)
        var parts: [Part] = []
        while let lineEnd = buffer[max(start, scanned)...].firstIndex(of: 0x0A) {
            var line = buffer[start..<lineEnd]
            if line.last == 0x0D { line = line.dropLast() }
            if let part = take(line, next: lineEnd + 1) { parts.append(part) }
            start = lineEnd + 1
        }
        if let part = partBeforeAnUnfinishedDelimiter() { parts.append(part) }
        scanned = buffer.count
        let waiting = buffer.count - (phase == .body ? bodyStart : start)
        guard waiting <= maxPartBytes else {
            throw GatewayError(
                .responseTooLarge, "a part of the multipart body is longer than \(maxPartBytes) bytes",
                fix: "raise maxPartBytes if the server's parts really are this large")
        }
        compact()
        return parts
    }

    /// - Throws: `GatewayError` (`.invalidResponse`) when the body ended before its closing
    ///   delimiter.
    public mutating func finish() throws -> [Part] {
        // The closing delimiter may end the stream without a line end.
        var parts: [Part] = []
        if !isClosed, start < buffer.count, let part = take(buffer[start...], next: buffer.count) {
            parts.append(part)
        }
        guard isClosed else {
            throw GatewayError(
                .invalidResponse, "the multipart body ended before its closing delimiter --\(boundary)--",
                fix: "the server closed the stream early: try again, or check the server's logs")
        }
        return parts
    }

    /// One line (its end left out), starting at `start`; `next` is where the line after it
    /// starts. Returns the part a delimiter line ends.
    private mutating func take(_ line: ArraySlice<UInt8>, next: Int) -> Part? {
        switch phase {
        case .preamble:
            guard let closing = delimiter(line) else { return nil }
            phase = closing ? .epilogue : .headers
            isClosed = closing
            headers = HTTPHeaders()
            return nil
        case .headers:
            if let closing = delimiter(line) {
                // A delimiter where header fields were expected: the part was empty (some servers
                // send one before the closing delimiter), and is skipped.
                phase = closing ? .epilogue : .headers
                isClosed = closing
                headers = HTTPHeaders()
            } else if line.isEmpty {
                phase = .body
                bodyStart = next
            } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
                let name = String(decoding: line[..<colon], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                headers.add(name: name, value: value)
            }
            return nil
        case .body:
            guard let closing = delimiter(line) else { return nil }
            let part = Part(headers: headers, body: Data(bodyBeforeDelimiter()))
            phase = closing ? .epilogue : .headers
            isClosed = closing
            headers = HTTPHeaders()
            return part
        case .delimiter:
            let closing = delimiter(line) ?? false
            phase = closing ? .epilogue : .headers
            isClosed = closing
            headers = HTTPHeaders()
            return nil
        case .epilogue:
            return nil
        }
    }

    /// The body of the part being read, up to the delimiter line at `start` (the line end
    /// before the delimiter belongs to it, not to the body).
    private func bodyBeforeDelimiter() -> ArraySlice<UInt8> {
        var end = start
        if end > bodyStart, buffer[end - 1] == 0x0A { end -= 1 }
        if end > bodyStart, buffer[end - 1] == 0x0D { end -= 1 }
        return buffer[bodyStart..<max(bodyStart, end)]
    }

    /// A JSON part whose delimiter has arrived without its line end (which comes with the next
    /// part): handed out now when what came before the delimiter is one complete JSON value, so
    /// the `--boundary` cannot be the start of a line of the body.
    private mutating func partBeforeAnUnfinishedDelimiter() -> Part? {
        guard phase == .body, buffer.count - start == dashBoundary.count, buffer[start...].elementsEqual(dashBoundary),
              headers["Content-Type"]?.lowercased().contains("json") == true
        else { return nil }
        let body = bodyBeforeDelimiter()
        guard (try? JSONValue(parsing: Array(body))) != nil else { return nil }
        phase = .delimiter
        return Part(headers: headers, body: Data(body))
    }

    /// Whether `line` is a delimiter: `false` for `--boundary` (padding after it allowed), `true`
    /// for the closing `--boundary--`, `nil` for any other line.
    private func delimiter(_ line: ArraySlice<UInt8>) -> Bool? {
        guard line.starts(with: dashBoundary) else { return nil }
        let rest = line.dropFirst(dashBoundary.count)
        if rest.starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]) { return true }
        return rest.allSatisfy { $0 == 0x20 || $0 == 0x09 } ? false : nil
    }

    /// Drops the bytes already read once they are most of the buffer.
    private mutating func compact() {
        let keep = phase == .body ? min(start, bodyStart) : start
        guard keep > 0, keep * 2 >= buffer.count else { return }
        buffer.removeFirst(keep)
        start -= keep
        scanned -= keep
        bodyStart = max(0, bodyStart - keep)
    }
}
