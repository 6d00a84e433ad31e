import Foundation
import Gateway
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat

extension AsyncHTTPClientTransport {
    /// One exchange's body as the client reads it: backpressured (the client reads from the
    /// network only as chunks are asked for, at most `Exchange.readAhead` bytes ahead; chunks
    /// that waited are taken together, then yielded one by one without copying their bytes),
    /// checked against the announced
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

        /// The body handed to `consume` on the event loop as it arrives (see
        /// `ResponseBody.forEachChunk`), checked as the iterator checks it.
        ///
        /// - Returns: the number of bytes delivered.
        /// - Throws: what `consume` throws, as it is; otherwise what the iterator would throw.
        func deliver(_ consume: @escaping @Sendable (Data) throws -> Void) async throws -> Int64 {
            guard let exchange else { return 0 }
            let received = NIOLockedValueBox(0)
            do {
                try await exchange.deliver { chunk in
                    try checkLimit(received.withLockedValue { total in
                        total += chunk.readableBytes
                        return total
                    })
                    do {
                        try consume(Iterator.data(chunk))
                    } catch {
                        throw ConsumerFailure(error: error)
                    }
                }
            } catch let failure as ConsumerFailure {
                exchange.abandon()
                throw failure.error
            } catch {
                exchange.abandon()
                throw reported(error, of: exchange, received: received.withLockedValue { $0 })
            }
            let total = received.withLockedValue { $0 }
            try checkComplete(total)
            return Int64(total)
        }

        /// Throws `.responseTooLarge` once `received` bytes pass the request's size limit.
        func checkLimit(_ received: Int) throws {
            let limit = request.maxResponseBytes
            if received > limit { throw GatewayError.responseTooLarge(request, limit: limit, declared: nil) }
        }

        /// At the body's end: throws when fewer bytes than the announced length arrived.
        func checkComplete(_ received: Int) throws {
            if let expected, received < expected {
                throw AsyncHTTPClientTransport.connectionLost(request, received: received, expected: expected)
            }
        }

        /// `error`, which ended the exchange `received` bytes into the body, as the transport reports it.
        func reported(_ error: any Error, of exchange: Exchange, received: Int) -> any Error {
            AsyncHTTPClientTransport.map(
                error, request: request, idleTimeout: exchange.idleTimeout,
                elapsed: ContinuousClock.now - callStarted, progress: (received, expected))
        }

        /// An error of the consumer's, kept apart from the exchange's own.
        private struct ConsumerFailure: Error {
            var error: any Error
        }

        func makeAsyncIterator() -> Iterator {
            Iterator(body: self, release: exchange.map(Release.init))
        }

        struct Iterator: AsyncIteratorProtocol {
            let body: Body
            /// Cancels the exchange when the iterator is dropped before the end; `nil` once the body has ended or failed.
            var release: Release?
            var received = 0
            /// Chunks taken from the exchange and not yet yielded.
            var taken = Exchange.Handout()

            mutating func next() async throws -> Data? {
                guard let exchange = release?.exchange else { return nil }
                do {
                    while taken.isEmpty {
                        guard let handout = try await exchange.nextChunks() else {
                            release = nil
                            try body.checkComplete(received)
                            return nil
                        }
                        taken = handout
                    }
                    let chunk = taken.removeFirst()
                    received += chunk.readableBytes
                    try body.checkLimit(received)
                    return Self.data(chunk)
                } catch {
                    release = nil
                    exchange.abandon()
                    throw body.reported(error, of: exchange, received: received)
                }
            }

            /// The chunk's bytes: the buffer's own storage when the chunk fills at least half of it
            /// (as a large read does), a copy otherwise, so that a small chunk a caller keeps does not
            /// keep a whole read buffer alive.
            static func data(_ chunk: ByteBuffer) -> Data {
                let wrapsStorage = chunk.readableBytes >= chunk.storageCapacity / 2
                return Data(buffer: chunk, byteTransferStrategy: wrapsStorage ? .noCopy : .copy)
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
