import Foundation

/// What the loopback server sends back for one request, and how it misbehaves while doing so.
///
/// The server adds `Content-Length` (or `Transfer-Encoding: chunked` when `chunked` is set)
/// unless the handler set one itself, and `Connection: close` when it is going to close the
/// connection. Bodies of `HEAD` requests and of 1xx, 204 and 304 responses are never sent.
public struct LoopbackResponse: Sendable {
    /// A way for the server to misbehave while answering.
    public enum Fault: Sendable, Hashable {
        /// Wait this long before sending the status line and headers.
        case delayHeaders(Duration)
        /// Send the body `chunk` bytes at a time with a pause of `every` before each piece after
        /// the first.
        case throttleBody(chunk: Int, every: Duration)
        /// Send the headers (announcing the whole body) and the first `afterBytes` bytes of the
        /// body, then close the connection.
        case closeMidBody(afterBytes: Int)
        /// Reset the connection (TCP RST) instead of answering.
        case resetConnection
        /// Keep the connection open and never answer until the server shuts down.
        case stall
        /// Send these bytes as the whole reply, in place of the response's status line, header
        /// fields and body, then close the connection: how a test plays a server that breaks
        /// HTTP (a malformed status line, a NUL in a header, a flood of `100 Continue`).
        case raw(Data)
    }

    /// The status code.
    public var status: Int
    /// The header fields, in order.
    public var headers: LoopbackHeaders
    /// The body.
    public var body: Data
    /// Whether to send the body with chunked transfer coding instead of `Content-Length`.
    public var chunked: Bool
    /// How to misbehave, if at all.
    public var fault: Fault?
    /// A body sent piece by piece after `body`, with chunked transfer coding, as the stream
    /// produces it (faults other than `delayHeaders` do not apply to it).
    public var stream: LoopbackBodyStream?

    /// Creates a response.
    public init(
        status: Int = 200,
        headers: LoopbackHeaders = [:],
        body: Data = Data(),
        chunked: Bool = false,
        fault: Fault? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.chunked = chunked
        self.fault = fault
    }

    /// A JSON response from JSON text.
    public static func json(_ text: String, status: Int = 200, headers: LoopbackHeaders = [:]) -> LoopbackResponse {
        var all = headers
        if !all.contains("Content-Type") { all["Content-Type"] = "application/json" }
        return LoopbackResponse(status: status, headers: all, body: Data(text.utf8))
    }

    /// A JSON response from an `Encodable` value (keys sorted); a value that cannot be encoded
    /// gives a 500 whose body says why.
    public static func json(
        encoding value: some Encodable & Sendable,
        status: Int = 200,
        headers: LoopbackHeaders = [:]
    ) -> LoopbackResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            var response = LoopbackResponse.json("", status: status, headers: headers)
            response.body = try encoder.encode(value)
            return response
        } catch {
            return .text("the handler's value could not be encoded as JSON: \(error)", status: 500)
        }
    }

    /// A plain-text response (UTF-8).
    public static func text(_ text: String, status: Int = 200, headers: LoopbackHeaders = [:]) -> LoopbackResponse {
        var all = headers
        if !all.contains("Content-Type") { all["Content-Type"] = "text/plain; charset=utf-8" }
        return LoopbackResponse(status: status, headers: all, body: Data(text.utf8))
    }

    /// A response of raw bytes.
    public static func data(
        _ body: Data,
        contentType: String = "application/octet-stream",
        status: Int = 200,
        headers: LoopbackHeaders = [:]
    ) -> LoopbackResponse {
        var all = headers
        if !all.contains("Content-Type") { all["Content-Type"] = contentType }
        return LoopbackResponse(status: status, headers: all, body: body)
    }

    /// A response with only a status code and no body.
    public static func status(_ status: Int, headers: LoopbackHeaders = [:]) -> LoopbackResponse {
        LoopbackResponse(status: status, headers: headers)
    }

    /// A redirect to `location` (absolute URL or a path on this server).
    public static func redirect(to location: String, status: Int = 302) -> LoopbackResponse {
        LoopbackResponse(status: status, headers: ["Location": location])
    }

    /// A redirect to an absolute URL.
    public static func redirect(to url: URL, status: Int = 302) -> LoopbackResponse {
        redirect(to: url.absoluteString, status: status)
    }

    /// The same response with a fault added.
    public func with(fault: Fault) -> LoopbackResponse {
        var copy = self
        copy.fault = fault
        return copy
    }

    /// Whether a response with this status to a request with this method carries a body.
    func carriesBody(forMethod method: String) -> Bool {
        !(method == "HEAD" || (100..<200).contains(status) || status == 204 || status == 304)
    }

    /// The standard reason phrase of a status code.
    static func reason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }
}
