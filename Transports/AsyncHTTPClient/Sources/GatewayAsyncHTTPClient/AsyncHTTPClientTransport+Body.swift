import AsyncHTTPClient
import Foundation
import Gateway
import NIOCore
import NIOFoundationCompat

extension AsyncHTTPClientTransport {
    /// The idle timeout and deadline of one exchange, for the cases the client's own read
    /// timeout does not cover.
    struct Watch: Sendable {
        let request: HTTPRequest
        let progress: Progress
        let idleTimeout: Duration
        let callStarted: ContinuousClock.Instant

        /// Runs `operation`; when `watched`, races it against the idle timeout and the deadline,
        /// cancelling it when one passes.
        func race<Value: Sendable>(
            _ watched: Bool, _ operation: @escaping @Sendable () async throws -> Value
        ) async throws -> Value {
            guard watched else { return try await operation() }
            return try await withThrowingTaskGroup(of: Value?.self) { group in
                group.addTask { try await operation() }
                group.addTask {
                    try await watch()
                    return nil
                }
                defer { group.cancelAll() }
                while let result = try await group.next() {
                    if let value = result { return value }
                }
                throw CancellationError()
            }
        }

        /// Ends with a timeout error once the idle timeout or the deadline passes; returns when cancelled.
        private func watch() async throws {
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
    }

    /// One exchange's body as the client reads it: backpressured (the client reads from the
    /// network only as chunks are asked for), checked against the announced length and the
    /// request's size limit, and within the idle timeout and deadline. Dropping its iterator, or
    /// cancelling the task that reads, cancels the request.
    struct Body: AsyncSequence, Sendable {
        typealias Element = Data

        /// The client's body, or `nil` when the response carries none.
        let response: HTTPClientResponse.Body?
        let expected: Int?
        /// Set when the client's own read timeout does not cover the request's limits.
        let watch: Watch?
        let request: HTTPRequest
        let progress: Progress
        let idleTimeout: Duration
        let callStarted: ContinuousClock.Instant

        /// Bytes of request body sent in this exchange.
        var bytesSent: Int64 {
            switch request.body {
            case .file?: progress.bytesSent
            case .data(let data)?: Int64(data.count)
            case nil: 0
            }
        }

        func makeAsyncIterator() -> Iterator { Iterator(base: response?.makeAsyncIterator(), body: self) }

        struct Iterator: AsyncIteratorProtocol {
            /// `nil` once the body has ended or failed.
            var base: HTTPClientResponse.Body.AsyncIterator?
            let body: Body
            var received = 0

            mutating func next() async throws -> Data? {
                guard var iterator = base else { return nil }
                base = nil
                do {
                    let buffer: ByteBuffer?
                    if let watch = body.watch {
                        let box = IteratorBox(iterator)
                        buffer = try await watch.race(true) { try await box.next() }
                        iterator = box.iterator
                    } else {
                        buffer = try await iterator.next()
                    }
                    guard let buffer else {
                        if let expected = body.expected, received < expected {
                            throw AsyncHTTPClientTransport.connectionLost(body.request, received: received, expected: expected)
                        }
                        return nil
                    }
                    received += buffer.readableBytes
                    body.progress.received(buffer.readableBytes)
                    let limit = body.request.maxResponseBytes
                    if received > limit { throw GatewayError.responseTooLarge(body.request, limit: limit, declared: nil) }
                    base = iterator
                    return Data(buffer: buffer, byteTransferStrategy: .copy)
                } catch {
                    throw AsyncHTTPClientTransport.map(
                        error, request: body.request, idleTimeout: body.idleTimeout,
                        elapsed: ContinuousClock.now - body.callStarted, progress: body.progress.bodyProgress)
                }
            }
        }
    }

    /// Carries the client's body iterator into the task that races it against the watchdog.
    ///
    /// `@unchecked Sendable` because the iterator is not: it must never be used by two tasks at
    /// once. It is not: the reading task hands it to one child task for one `next()` and takes it
    /// back only after that child has ended (the task group's end orders the two).
    final class IteratorBox: @unchecked Sendable {
        var iterator: HTTPClientResponse.Body.AsyncIterator

        init(_ iterator: HTTPClientResponse.Body.AsyncIterator) { self.iterator = iterator }

        func next() async throws -> ByteBuffer? { try await iterator.next() }
    }
}
