import AsyncHTTPClient
import Foundation
import Gateway
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

extension AsyncHTTPClientTransport {
    /// What one exchange (one request, no redirects followed) produced.
    struct Exchange: Sendable {
        var status: Int
        var headers: Gateway.HTTPHeaders
        var body: Data
        var timeToFirstByte: Duration?
        var bytesSent: Int64
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

    /// One request and its whole response, without following redirects, within the idle timeout
    /// and the deadline.
    ///
    /// When the transport owns its client, the request's idle timeout is the configured one and
    /// there is no deadline, the client's read timeout is the whole limit and no watchdog is
    /// needed (the common case, and the fast one). Otherwise a watchdog task races the request:
    /// the client's own deadline ends with the response head, not the body.
    func exchange(_ request: HTTPRequest, callStarted: ContinuousClock.Instant) async throws -> Exchange {
        let idleTimeout = max(request.timeout ?? configuration.timeout, .milliseconds(1))
        let progress = Progress(now: ContinuousClock.now)
        do {
            if clientEnforcesTimeout, idleTimeout == configuration.timeout, request.deadline == nil {
                return try await perform(
                    request, deadline: .distantFuture, progress: progress, callStarted: callStarted)
            }
            return try await withThrowingTaskGroup(of: Exchange?.self) { group in
                group.addTask {
                    try await self.perform(
                        request, deadline: .distantFuture, progress: progress, callStarted: callStarted)
                }
                group.addTask {
                    try await Self.watch(
                        request, progress: progress, idleTimeout: idleTimeout, callStarted: callStarted)
                    return nil
                }
                defer { group.cancelAll() }
                while let result = try await group.next() {
                    if let exchange = result { return exchange }
                }
                throw CancellationError()
            }
        } catch {
            throw Self.map(
                error, request: request, idleTimeout: idleTimeout, elapsed: ContinuousClock.now - callStarted,
                progress: progress.bodyProgress
            )
        }
    }

    /// Sends the request and reads the whole body, enforcing the size limit as bytes arrive.
    private func perform(
        _ request: HTTPRequest, deadline: NIODeadline, progress: Progress, callStarted: ContinuousClock.Instant
    ) async throws -> Exchange {
        let response = try await client.execute(makeClientRequest(request, progress: progress), deadline: deadline)
        let headReceived = ContinuousClock.now
        let headers = Self.headers(of: response.headers)
        let status = Int(response.status.code)
        let carriesBody = request.method != .head && !(100..<200).contains(status) && status != 204 && status != 304
        let expected = carriesBody ? headers.declaredBodyLength : nil
        progress.head(expected: expected)
        let limit = request.maxResponseBytes
        if let expected, expected > limit {
            throw GatewayError.responseTooLarge(request, limit: limit, declared: expected)
        }
        var body = Data()
        if let expected { body.reserveCapacity(expected) }
        if carriesBody {
            for try await buffer in response.body {
                progress.received(buffer.readableBytes)
                guard body.count + buffer.readableBytes <= limit else {
                    throw GatewayError.responseTooLarge(request, limit: limit, declared: nil)
                }
                buffer.withUnsafeReadableBytes { body.append(contentsOf: $0) }
            }
        }
        if let expected, body.count < expected {
            throw Self.connectionLost(request, received: body.count, expected: expected)
        }
        let bytesSent: Int64
        switch request.body {
        case .file?: bytesSent = progress.bytesSent
        case .data(let data)?: bytesSent = Int64(data.count)
        case nil: bytesSent = 0
        }
        return Exchange(
            status: status, headers: headers, body: body,
            timeToFirstByte: headReceived - callStarted, bytesSent: bytesSent
        )
    }

    /// Ends with a timeout error once the idle timeout or the deadline passes; returns when cancelled.
    private static func watch(
        _ request: HTTPRequest, progress: Progress, idleTimeout: Duration, callStarted: ContinuousClock.Instant
    ) async throws {
        while !Task.isCancelled {
            let lastActivity = progress.lastActivity
            let now = ContinuousClock.now
            if let deadline = request.deadline, now >= deadline {
                throw GatewayError.deadlinePassed(request, after: now - callStarted)
            }
            if now - lastActivity >= idleTimeout {
                throw GatewayError.idleTimeout(request, after: idleTimeout)
            }
            var wake = lastActivity + idleTimeout
            if let deadline = request.deadline, deadline < wake { wake = deadline }
            do {
                try await Task.sleep(until: wake, clock: .continuous)
            } catch {
                return
            }
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
