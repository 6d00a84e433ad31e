import Foundation
import Gateway
import NIOCore
import NIOFoundationCompat

extension AsyncHTTPClientTransport {
    /// One exchange's body as the client reads it: backpressured (the client reads from the
    /// network only as chunks are asked for, at most `Exchange.readAhead` bytes ahead; chunks
    /// that waited are handed out together), checked against the announced
    /// length and the request's size limit, within the idle timeout and deadline. Dropping the
    /// body or its iterator before the end, or cancelling the task that reads, cancels the request.
    struct Body: AsyncSequence, Sendable {
        typealias Element = Data

        /// The exchange, or `nil` when the response carries no body.
        let exchange: Exchange?
        let expected: Int?
        let request: HTTPRequest
        let callStarted: ContinuousClock.Instant
        /// Cancels the exchange once every copy of the body is gone.
        private let release: Release?

        init(exchange: Exchange?, expected: Int?, request: HTTPRequest, callStarted: ContinuousClock.Instant) {
            self.exchange = exchange
            self.expected = expected
            self.request = request
            self.callStarted = callStarted
            release = exchange.map(Release.init)
        }

        /// Bytes of request body sent in this exchange.
        var bytesSent: Int64 {
            switch request.body {
            case .file?: exchange?.bytesSent ?? 0
            case .data(let data)?: Int64(data.count)
            case nil: 0
            }
        }

        func makeAsyncIterator() -> Iterator {
            Iterator(body: self, release: exchange.map(Release.init))
        }

        struct Iterator: AsyncIteratorProtocol {
            let body: Body
            /// Cancels the exchange when the iterator is dropped before the end; `nil` once the body has ended or failed.
            var release: Release?
            var received = 0

            mutating func next() async throws -> Data? {
                guard let exchange = release?.exchange else { return nil }
                do {
                    guard let handout = try await exchange.nextChunk() else {
                        release = nil
                        if let expected = body.expected, received < expected {
                            throw AsyncHTTPClientTransport.connectionLost(body.request, received: received, expected: expected)
                        }
                        return nil
                    }
                    received += handout.readableBytes
                    let limit = body.request.maxResponseBytes
                    if received > limit { throw GatewayError.responseTooLarge(body.request, limit: limit, declared: nil) }
                    return handout.data
                } catch {
                    release = nil
                    exchange.abandon()
                    throw AsyncHTTPClientTransport.map(
                        error, request: body.request, idleTimeout: exchange.idleTimeout,
                        elapsed: ContinuousClock.now - body.callStarted, progress: (received, body.expected))
                }
            }
        }
    }

    /// Abandons its exchange when released: whatever has not been read by then is not wanted.
    /// (Abandoning an exchange that has ended does nothing.)
    final class Release: Sendable {
        let exchange: Exchange

        init(_ exchange: Exchange) { self.exchange = exchange }

        deinit { exchange.abandon() }
    }
}
