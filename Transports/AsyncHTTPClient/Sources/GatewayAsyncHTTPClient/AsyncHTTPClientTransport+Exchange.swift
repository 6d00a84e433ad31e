import AsyncHTTPClient
import Foundation
import Gateway
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

extension AsyncHTTPClientTransport {
    /// The head of one exchange (one request, no redirects followed).
    struct Head: Sendable {
        var status: Int
        var headers: Gateway.HTTPHeaders
        var timeToFirstByte: Duration?
    }

    /// One request, without following redirects, until its response head, within the idle
    /// timeout and the deadline; the body follows through the returned `Body`.
    ///
    /// The client's deadline (which bounds the whole request, body included) keeps the request's
    /// deadline. When the transport owns its client and the request's idle timeout is the
    /// configured one, the client's read timeout is the idle timeout (the common case, and the
    /// fast one); otherwise the exchange keeps it with a timer of its own.
    func exchange(_ request: HTTPRequest, callStarted: ContinuousClock.Instant) async throws -> (Head, Body) {
        let idleTimeout = max(request.timeout ?? configuration.timeout, .milliseconds(1))
        let clientKeepsIdleTime = clientEnforcesTimeout && idleTimeout == configuration.timeout
        let exchange = Exchange(
            request: request, idleTimeout: idleTimeout, watchesIdleTime: !clientKeepsIdleTime,
            eventLoop: eventLoop(for: request.url))
        do {
            let clientRequest = try makeClientRequest(request, exchange: exchange)
            let deadline = request.deadline.map { NIODeadline.now() + Self.timeAmount($0 - .now) }
            let response = try await exchange.start(on: client, clientRequest, deadline: deadline)
            let headers = Self.headers(of: response.headers)
            let status = Int(response.status.code)
            let carriesBody = request.method != .head && !(100..<200).contains(status) && status != 204 && status != 304
            let expected = carriesBody ? headers.declaredBodyLength : nil
            if let expected, expected > request.maxResponseBytes {
                throw GatewayError.responseTooLarge(request, limit: request.maxResponseBytes, declared: expected)
            }
            let head = Head(status: status, headers: headers, timeToFirstByte: ContinuousClock.now - callStarted)
            let body = Body(
                exchange: carriesBody ? exchange : nil, expected: expected, request: request, callStarted: callStarted)
            return (head, body)
        } catch {
            exchange.abandon()
            throw Self.map(
                error, request: request, idleTimeout: idleTimeout, elapsed: ContinuousClock.now - callStarted,
                progress: nil)
        }
    }

    /// The event loop of `url`'s origin. Every request to one origin has its delegate calls
    /// there, and the client opens the connections for them there (it reuses an idle connection
    /// on another loop only when it has one), so the chunks of a response are not handed from the
    /// connection's loop to another and back for every read.
    func eventLoop(for url: URL) -> any EventLoop {
        guard !eventLoops.isEmpty else { return client.eventLoopGroup.any() }
        var hash = OriginHash()
        hash.add(url.scheme)
        hash.add(url.host)
        hash.add(port: url.port)
        return eventLoops[Int(hash.folded % UInt64(eventLoops.count))]
    }

    private func makeClientRequest(_ request: HTTPRequest, exchange: Exchange) throws -> HTTPClient.Request {
        var headers = NIOHTTP1.HTTPHeaders()
        headers.reserveCapacity(request.headers.count + 3)
        for field in request.headers where !Gateway.HTTPHeaders.isFraming(field.name) {
            headers.add(name: field.name, value: field.value)
        }
        let body: HTTPClient.Body?
        switch request.body {
        case .data(let data)? where !data.isEmpty:
            body = .byteBuffer(ByteBuffer(data: data))
        case .file(let url, let length, _)?:
            body = FileChunks(url: url, exchange: exchange).body(length: length, eventLoop: client.eventLoopGroup.any())
        case .data?, nil:
            body = nil
        }
        if let body = request.body, body.length > 0, !request.headers.contains("Content-Type") {
            headers.add(name: "Content-Type", value: "application/octet-stream")
        }
        if !request.headers.contains("User-Agent") {
            headers.add(name: "User-Agent", value: configuration.userAgent)
        }
        if !request.headers.contains("Accept-Encoding") {
            headers.add(name: "Accept-Encoding", value: configuration.acceptEncoding)
        }
        return try HTTPClient.Request(
            url: request.url, method: NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue), headers: headers,
            body: body)
    }

    /// The response's header fields, in the order they arrived.
    static func headers(of headers: NIOHTTP1.HTTPHeaders) -> Gateway.HTTPHeaders {
        var result = Gateway.HTTPHeaders()
        for (name, value) in headers { result.add(name: name, value: value) }
        return result
    }
}

/// FNV-1a over an origin's parts, ASCII letters in lower case, from which its requests' event
/// loop is chosen: the same for every request to the origin, at a few instructions per byte
/// (`Hasher` would do as well, at a call per byte).
struct OriginHash {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ part: String?) {
        guard var part else { return mix(0) }
        part.withUTF8 { bytes in
            for byte in bytes { mix(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) }
        }
        mix(0xFF)
    }

    mutating func add(port: Int?) {
        guard let port else { return mix(0) }
        withUnsafeBytes(of: port.littleEndian) { bytes in
            for byte in bytes { mix(byte) }
        }
    }

    /// The high half folded into the low, which alone would hardly mix (a product's low bits
    /// depend only on its factors' low bits).
    var folded: UInt64 { value ^ (value >> 32) }

    private mutating func mix(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
}
