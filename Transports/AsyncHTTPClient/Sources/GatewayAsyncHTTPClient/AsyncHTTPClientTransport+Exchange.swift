import AsyncHTTPClient
import Foundation
import Gateway
import NIOConcurrencyHelpers
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

    /// The progress of one exchange, shared between the request, its body stream and the watchdog.
    final class Progress: Sendable {
        private struct State {
            var lastActivity: ContinuousClock.Instant
            var headReceived = false
            var received = 0
            var expected: Int?
            var sent: Int64 = 0
        }

        private let state: NIOLockedValueBox<State>

        init(now: ContinuousClock.Instant) { state = NIOLockedValueBox(State(lastActivity: now)) }

        var lastActivity: ContinuousClock.Instant { state.withLockedValue { $0.lastActivity } }

        /// Something moved: the idle timeout starts again.
        func touch() {
            let now = ContinuousClock.now
            state.withLockedValue { $0.lastActivity = now }
        }

        func sent(_ count: Int) {
            let now = ContinuousClock.now
            state.withLockedValue {
                $0.lastActivity = now
                $0.sent += Int64(count)
            }
        }

        func head(expected: Int?) {
            let now = ContinuousClock.now
            state.withLockedValue {
                $0.lastActivity = now
                $0.headReceived = true
                $0.expected = expected
            }
        }

        func received(_ count: Int) {
            let now = ContinuousClock.now
            state.withLockedValue {
                $0.lastActivity = now
                $0.received += count
            }
        }

        /// Bytes of body received so far and the length announced, once the head has arrived.
        var bodyProgress: (received: Int, expected: Int?)? {
            state.withLockedValue { $0.headReceived ? ($0.received, $0.expected) : nil }
        }

        var bytesSent: Int64 { state.withLockedValue { $0.sent } }
    }

    /// One request, without following redirects, until its response head, within the idle
    /// timeout and the deadline; the body follows through the returned `Body`.
    ///
    /// When the transport owns its client, the request's idle timeout is the configured one and
    /// there is no deadline, the client's read timeout is the whole limit and no watchdog is
    /// needed (the common case, and the fast one). Otherwise a watchdog races the head and then
    /// each read of the body: the client's own deadline ends with the response head, not the body.
    func exchange(_ request: HTTPRequest, callStarted: ContinuousClock.Instant) async throws -> (Head, Body) {
        let idleTimeout = max(request.timeout ?? configuration.timeout, .milliseconds(1))
        let progress = Progress(now: ContinuousClock.now)
        let watched = !(clientEnforcesTimeout && idleTimeout == configuration.timeout && request.deadline == nil)
        let watch = Watch(request: request, progress: progress, idleTimeout: idleTimeout, callStarted: callStarted)
        do {
            let clientRequest = makeClientRequest(request, progress: progress)
            let client = client
            let response = try await watch.race(watched) {
                try await client.execute(clientRequest, deadline: .distantFuture)
            }
            let headers = Self.headers(of: response.headers)
            let status = Int(response.status.code)
            let carriesBody = request.method != .head && !(100..<200).contains(status) && status != 204 && status != 304
            let expected = carriesBody ? headers.declaredBodyLength : nil
            progress.head(expected: expected)
            if let expected, expected > request.maxResponseBytes {
                throw GatewayError.responseTooLarge(request, limit: request.maxResponseBytes, declared: expected)
            }
            let head = Head(status: status, headers: headers, timeToFirstByte: ContinuousClock.now - callStarted)
            let body = Body(response: carriesBody ? response.body : nil, expected: expected, watch: watched ? watch : nil,
                            request: request, progress: progress, idleTimeout: idleTimeout, callStarted: callStarted)
            return (head, body)
        } catch {
            throw Self.map(
                error, request: request, idleTimeout: idleTimeout, elapsed: ContinuousClock.now - callStarted,
                progress: progress.bodyProgress
            )
        }
    }

    private func makeClientRequest(_ request: HTTPRequest, progress: Progress) -> HTTPClientRequest {
        var clientRequest = HTTPClientRequest(url: request.url.absoluteString)
        clientRequest.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        var headers = NIOHTTP1.HTTPHeaders()
        headers.reserveCapacity(request.headers.count + 3)
        for field in request.headers where !Gateway.HTTPHeaders.isFraming(field.name) {
            headers.add(name: field.name, value: field.value)
        }
        switch request.body {
        case .data(let data)? where !data.isEmpty:
            clientRequest.body = .bytes(data)
        case .file(let url, let length, _)?:
            clientRequest.body = .stream(FileChunks(url: url, progress: progress), length: .known(length))
        case .data?, nil:
            break
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
        clientRequest.headers = headers
        return clientRequest
    }

    /// The response's header fields, in the order they arrived.
    static func headers(of headers: NIOHTTP1.HTTPHeaders) -> Gateway.HTTPHeaders {
        var result = Gateway.HTTPHeaders()
        for (name, value) in headers { result.add(name: name, value: value) }
        return result
    }
}
