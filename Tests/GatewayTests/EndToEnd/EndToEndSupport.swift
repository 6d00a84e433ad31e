import Foundation
import Gateway
import GatewayTesting

/// Helpers for the end-to-end tests: a `Provider` over the real `URLSessionTransport` talking to
/// a `LoopbackServer` on 127.0.0.1, and a server-side reader of what arrived.
enum EndToEnd {
    /// A provider whose base URL is `/api/` on `server`, sending through a fresh `URLSessionTransport`.
    static func provider(
        _ server: LoopbackServer, configure: (inout Provider.Configuration) -> Void = { _ in }
    ) throws -> Provider {
        Provider(baseURL: try server.url("/api/"), transport: URLSessionTransport()) { config in
            // Generous limits: nothing here should come near them, and a hang must still end.
            config.timeout = .seconds(30)
            config.deadline = .seconds(60)
            configure(&config)
        }
    }

    /// The only request the server received; fails the test when there is not exactly one.
    static func onlyRequest(_ server: LoopbackServer) throws -> LoopbackRequest {
        let requests = server.requests
        guard requests.count == 1, let request = requests.first else {
            throw EndToEndFailure("expected exactly one request at the server, got \(requests.count): \(requests)")
        }
        return request
    }

    /// Name–value pairs of decoded query items, for comparing with an expected list.
    static func pairs(_ items: [LoopbackRequest.QueryItem]) -> [String] {
        items.map { "\($0.name)=\($0.value ?? "")" }
    }

    /// The decoded items of an `application/x-www-form-urlencoded` body, as the server reads them.
    static func formItems(_ body: Data) -> [LoopbackRequest.QueryItem] {
        LoopbackRequest(method: "POST", target: "/?" + String(decoding: body, as: UTF8.self)).query
    }
}

/// A test failure with a message, thrown from helpers.
struct EndToEndFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One part of a `multipart/form-data` body, as a server parses it.
struct ReceivedPart: Equatable {
    var headers: [String: String]
    var content: Data

    /// The `name` parameter of `Content-Disposition`.
    var name: String? { parameter("name") }
    /// The `filename` parameter of `Content-Disposition`.
    var filename: String? { parameter("filename") }
    /// The part's `Content-Type`.
    var contentType: String? { headers["content-type"] }

    private func parameter(_ key: String) -> String? {
        guard let disposition = headers["content-disposition"] else { return nil }
        for piece in disposition.split(separator: ";").dropFirst() {
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("\(key)=\"") , trimmed.hasSuffix("\"") else { continue }
            return String(trimmed.dropFirst(key.count + 2).dropLast())
        }
        return nil
    }
}

/// A strict server-side reader of `multipart/form-data` bodies (RFC 7578 / RFC 2046): it checks
/// the framing (delimiters, CRLFs, the closing delimiter) instead of assuming it.
enum MultipartReader {
    /// The boundary from a `Content-Type: multipart/form-data; boundary=…` value.
    static func boundary(fromContentType value: String?) throws -> String {
        guard let value, value.lowercased().hasPrefix("multipart/form-data") else {
            throw EndToEndFailure("not a multipart/form-data content type: \(value ?? "none")")
        }
        for piece in value.split(separator: ";").dropFirst() {
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            guard trimmed.lowercased().hasPrefix("boundary=") else { continue }
            var boundary = String(trimmed.dropFirst("boundary=".count))
            if boundary.hasPrefix("\""), boundary.hasSuffix("\""), boundary.count >= 2 {
                boundary = String(boundary.dropFirst().dropLast())
            }
            return boundary
        }
        throw EndToEndFailure("no boundary in \(value)")
    }

    /// The parts of `body` framed by `boundary`.
    static func parts(_ body: Data, boundary: String) throws -> [ReceivedPart] {
        let bytes = [UInt8](body)
        let opening = Array("--\(boundary)\r\n".utf8)
        let delimiter = Array("\r\n--\(boundary)".utf8)
        guard bytes.starts(with: opening) else { throw EndToEndFailure("the body does not start with the boundary") }
        var parts: [ReceivedPart] = []
        var index = opening.count
        while true {
            guard let headerEnd = find(Array("\r\n\r\n".utf8), in: bytes, from: index) else {
                throw EndToEndFailure("a part has no blank line after its headers")
            }
            var headers: [String: String] = [:]
            for line in String(decoding: bytes[index..<headerEnd], as: UTF8.self).components(separatedBy: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { throw EndToEndFailure("bad part header \(line)") }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                    .trimmingCharacters(in: .whitespaces)
            }
            let contentStart = headerEnd + 4
            guard let contentEnd = find(delimiter, in: bytes, from: contentStart) else {
                throw EndToEndFailure("a part is not closed by the boundary")
            }
            parts.append(ReceivedPart(headers: headers, content: Data(bytes[contentStart..<contentEnd])))
            let after = contentEnd + delimiter.count
            let rest = bytes[after...]
            if rest.starts(with: Array("--\r\n".utf8)) {
                guard rest.count == 4 else { throw EndToEndFailure("bytes after the closing boundary") }
                return parts
            }
            guard rest.starts(with: Array("\r\n".utf8)) else { throw EndToEndFailure("a boundary line is not ended") }
            index = after + 2
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
