import Foundation
import Gateway

/// One answer of a stub: a response or a failure, optionally after a delay or a gate.
public struct StubReply: Sendable {
    enum Outcome: Sendable {
        case response(HTTPResponse)
        case failure(any Error)
    }

    let outcome: Outcome
    var delay: Duration?
    var gate: Gate?
    var chunkSize: Int?

    /// Answers with `response` (its URL is set to the request's when missing).
    public static func response(_ response: HTTPResponse) -> StubReply {
        StubReply(outcome: .response(response))
    }

    /// Answers with a status, headers and body bytes.
    public static func status(_ status: Int, headers: HTTPHeaders = [:], body: Data = Data()) -> StubReply {
        .response(HTTPResponse(status: status, headers: headers, body: body))
    }

    /// Answers with JSON text and `Content-Type: application/json`.
    public static func json(_ text: String, status: Int = 200, headers: HTTPHeaders = [:]) -> StubReply {
        var headers = headers
        if !headers.contains("Content-Type") { headers["Content-Type"] = "application/json" }
        return .status(status, headers: headers, body: Data(text.utf8))
    }

    /// Answers with plain text and `Content-Type: text/plain; charset=utf-8`.
    public static func text(_ text: String, status: Int = 200, headers: HTTPHeaders = [:]) -> StubReply {
        var headers = headers
        if !headers.contains("Content-Type") { headers["Content-Type"] = "text/plain; charset=utf-8" }
        return .status(status, headers: headers, body: Data(text.utf8))
    }

    /// Fails the transport call with `error` (a `GatewayError` of kind `.transport` or
    /// `.timeout`, say, or a `URLError`).
    public static func failure(_ error: any Error) -> StubReply { StubReply(outcome: .failure(error)) }

    /// The same answer after `duration` (measured on the continuous clock; cancellable).
    public func delayed(by duration: Duration) -> StubReply {
        var copy = self
        copy.delay = duration
        return copy
    }

    /// The same answer with its body handed out in chunks of `size` bytes (at least 1), as a
    /// transport streaming the body would.
    public func inChunks(of size: Int) -> StubReply {
        var copy = self
        copy.chunkSize = max(1, size)
        return copy
    }

    /// The same answer once `gate` is open.
    public func held(by gate: Gate) -> StubReply {
        var copy = self
        copy.gate = gate
        return copy
    }
}

/// A request as the stub transport received it, with its body bytes (read from the file for a
/// file body, since the pipeline deletes temporary files after sending).
public struct RecordedRequest: Sendable, CustomStringConvertible {
    /// The request as sent.
    public let request: HTTPRequest
    /// The body bytes.
    public let body: Data

    /// The method.
    public var method: HTTPMethod { request.method }
    /// The URL.
    public var url: URL { request.url }
    /// The header fields.
    public var headers: HTTPHeaders { request.headers }
    /// The URL's percent-encoded query, or `nil`.
    public var percentEncodedQuery: String? {
        URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery
    }
    /// The decoded query items.
    public var queryItems: [URLQueryItem] { StubMatcher.queryItems(of: request.url) }
    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The request (redacted) and its body size.
    public var description: String { "\(request) (\(body.count) body bytes)" }
}
