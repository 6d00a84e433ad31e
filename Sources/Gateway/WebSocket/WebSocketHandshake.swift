import Foundation

/// The client's side of the opening handshake (RFC 6455 §4.1): the request, and the checks on
/// the server's answer.
struct WebSocketHandshake {
    /// The GUID that `Sec-WebSocket-Accept` hashes with the key (§1.3).
    static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// The longest answer head read.
    static let maxHeadBytes = 16_384

    let url: URL
    let host: String
    let port: Int
    /// The `Sec-WebSocket-Key`: 16 random bytes in base64.
    let key: String
    let subprotocols: [String]
    let request: [UInt8]

    /// Prepares the request to a `ws` URL.
    ///
    /// - Throws: `GatewayError` of kind `.invalidRequest` for a header field that would break the
    ///   request, or a subprotocol that is not an HTTP token.
    init(url: URL, headers: HTTPHeaders, subprotocols: [String]) throws {
        try HeaderValidation.check(headers)
        try HeaderValidation.check(HTTPHeaders(subprotocols.map { HTTPHeaders.Field(name: $0, value: "") }))
        let parts = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var host = parts?.host ?? ""
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.url = url
        self.host = host
        port = parts?.port ?? 80
        var random = SystemRandomNumberGenerator()
        key = Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }).base64EncodedString()
        self.subprotocols = subprotocols
        let path = (parts?.percentEncodedPath).flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        let target = path + (parts?.percentEncodedQuery.map { "?" + $0 } ?? "")
        let hostField = (host.contains(":") ? "[\(host)]" : host) + (parts?.port.map { ":\($0)" } ?? "")
        var lines = ["GET \(target) HTTP/1.1", "Host: \(hostField)", "Upgrade: websocket", "Connection: Upgrade",
                     "Sec-WebSocket-Key: \(key)", "Sec-WebSocket-Version: 13"]
        if !subprotocols.isEmpty { lines.append("Sec-WebSocket-Protocol: \(subprotocols.joined(separator: ", "))") }
        let reserved: Set<String> = ["host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version",
                                     "sec-websocket-protocol", "sec-websocket-extensions", "content-length",
                                     "transfer-encoding"]
        for field in headers where !reserved.contains(field.name.lowercased()) {
            lines.append("\(field.name): \(field.value)")
        }
        request = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// The `Sec-WebSocket-Accept` the server must answer for `key`.
    static func accept(for key: String) -> String {
        Data(SHA1.hash(Array((key + acceptGUID).utf8))).base64EncodedString()
    }

    /// Where the head ends in `bytes` (the index after the blank line), or `nil`.
    static func endOfHead(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index] == 0x0A && bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A && bytes[index - 3] == 0x0D {
            return index + 1
        }
        return nil
    }

    /// Checks the server's answer head and returns the subprotocol it chose.
    ///
    /// - Throws: `GatewayError` of kind `.status` (not `101`; the error carries the status and
    ///   header fields), or `.invalidResponse` (not an HTTP answer, or a 101 that does not accept
    ///   this key, upgrade to websocket or choose an offered subprotocol).
    func check(head: [UInt8]) throws -> String? {
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines.first?.split(separator: " ", maxSplits: 2) ?? []
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw invalid("an answer that is not HTTP/1.1 (\(String((lines.first ?? "").prefix(60))))")
        }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw invalid("a header line without a colon") }
            headers.add(name: String(line[..<colon]),
                        value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        guard status == 101 else {
            throw GatewayError.webSocketHandshakeRefused(HTTPResponse(status: status, headers: headers, url: url), url: url)
        }
        guard headers["Upgrade"]?.lowercased() == "websocket" else { throw invalid("a 101 answer without Upgrade: websocket") }
        let connection = headers.values(for: "Connection").flatMap { $0.split(separator: ",") }
        guard connection.contains(where: { $0.trimmingCharacters(in: .whitespaces).lowercased() == "upgrade" }) else {
            throw invalid("a 101 answer without Connection: Upgrade")
        }
        guard headers["Sec-WebSocket-Accept"] == Self.accept(for: key) else {
            throw invalid("a Sec-WebSocket-Accept that does not match the key sent")
        }
        guard let chosen = headers["Sec-WebSocket-Protocol"], !chosen.isEmpty else { return nil }
        guard subprotocols.contains(chosen) else {
            throw invalid("the subprotocol \"\(chosen.prefix(60))\", which was not offered")
        }
        return chosen
    }

    private func invalid(_ what: String) -> GatewayError {
        GatewayError(.invalidResponse,
                     "the server at \(Redaction.redactedURL(url)) answered the WebSocket handshake with \(what)",
                     fix: "check that the endpoint serves WebSockets (RFC 6455)")
    }
}
