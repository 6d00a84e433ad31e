import Foundation

/// A response body as it arrives: chunks of bytes (after content decoding), then, once the last
/// chunk has been read, the exchange's `TransportMetrics`.
///
/// Read a body once. Stopping early (leaving the loop, throwing, dropping the iterator) or
/// cancelling the reading task ends the transport's exchange: no more bytes are received.
///
/// ```swift
/// let response = try await transport.send(request)
/// var received = 0
/// for try await chunk in response.body {
///     received += chunk.count
/// }
/// print(received, response.body.metrics?.duration ?? .zero)
/// ```
public struct ResponseBody: AsyncSequence, Sendable {
    public typealias Element = Data

    enum Source: Sendable {
        /// The whole body, in hand.
        case whole(Data)
        /// Makes the function that pulls the next chunk (`nil` at the end); called once per iteration.
        case chunks(@Sendable () -> () async throws -> Data?)
    }

    /// Hands every chunk to a consumer as it arrives and returns the number of bytes handed;
    /// see `forEachChunk(_:)`.
    public typealias Delivery = @Sendable (_ consume: @escaping @Sendable (Data) throws -> Void) async throws -> Int64

    let source: Source
    /// The transport's own way to hand the chunks to a consumer, when it has one.
    let delivery: Delivery?
    private let ending: Ending

    /// A body that is all in hand: one chunk (none when `data` is empty).
    ///
    /// - Parameters:
    ///   - data: the whole body.
    ///   - metrics: what the transport measured; known at once.
    public init(_ data: Data, metrics: TransportMetrics = TransportMetrics()) {
        source = .whole(data)
        delivery = nil
        ending = Ending(metrics: metrics)
    }

    /// A body read from `chunks` as the consumer asks for them.
    ///
    /// Ending the exchange when the consumer stops early is the sequence's own business: its
    /// iterator should cancel the transfer when it is dropped or its task is cancelled.
    ///
    /// - Parameters:
    ///   - chunks: the decoded body's bytes; iterated once.
    ///   - metrics: called once, when the body ends without an error, with the number of bytes
    ///     it yielded; returns the exchange's metrics.
    ///   - delivery: the transport's own way to hand the same bytes to a consumer as they
    ///     arrive, used by `forEachChunk(_:)` instead of iterating `chunks` (a body is read
    ///     once, one way or the other). It calls `consume` once per chunk, in order, never
    ///     concurrently, and may call it on a thread of its own (as the bytes arrive, with no
    ///     task woken per chunk); an error `consume` throws ends the exchange and is rethrown as
    ///     it is. Returns the number of bytes delivered.
    public init<Chunks: AsyncSequence & Sendable>(
        _ chunks: Chunks, metrics: @escaping @Sendable (_ bytesReceived: Int64) -> TransportMetrics,
        delivery: Delivery? = nil
    ) where Chunks.Element == Data {
        source = .chunks {
            var iterator = chunks.makeAsyncIterator()
            return { try await iterator.next(isolation: #isolation) }
        }
        self.delivery = delivery
        ending = Ending(finish: metrics)
    }

    /// A body whose chunks come from a pull function made per iteration (the transports of this
    /// module, whose exchanges end when that function's owner is released).
    init(pull makePull: @escaping @Sendable () -> () async throws -> Data?,
         metrics: @escaping @Sendable (_ bytesReceived: Int64) -> TransportMetrics) {
        source = .chunks(makePull)
        delivery = nil
        ending = Ending(finish: metrics)
    }

    /// `body`, holding `owner` for as long as the body or any of its iterators exists (a stream
    /// keeps the provider, whose transport carries the exchange, alive while it is read).
    init(_ body: ResponseBody, keepingAlive owner: some AnyObject & Sendable) {
        switch body.source {
        case .whole: source = body.source
        case .chunks(let makePull):
            source = .chunks {
                let pull = makePull()
                return {
                    defer { withExtendedLifetime(owner) {} }
                    return try await pull()
                }
            }
        }
        if let deliver = body.delivery {
            delivery = { consume in
                defer { withExtendedLifetime(owner) {} }
                return try await deliver(consume)
            }
        } else {
            delivery = nil
        }
        ending = body.ending
    }

    /// Hands every chunk (never an empty one), in order, to `consume` as it arrives, and
    /// returns at the end of the body; the metrics are known then.
    ///
    /// A transport with a way of its own calls `consume` where the bytes arrive
    /// (`AsyncHTTPClientTransport`: on the connection's event loop, so a download's file is
    /// written as the bytes are read, with no task woken per read); otherwise the body is
    /// iterated and `consume` called from this task. Either way the calls come one at a time,
    /// in order: keep each one short and non-blocking beyond a write to a local file, since a
    /// transport's thread may serve other exchanges too. Read a body once: either this way or
    /// by iterating it.
    ///
    /// - Throws: what `consume` throws, as it is (the exchange ends), or what iterating the
    ///   body would throw.
    public func forEachChunk(_ consume: @escaping @Sendable (Data) throws -> Void) async throws {
        guard let delivery else {
            for try await chunk in self { try consume(chunk) }
            return
        }
        let delivered = try await delivery { chunk in
            if !chunk.isEmpty { try consume(chunk) }
        }
        ending.end(bytesReceived: delivered)
    }

    /// What the transport measured about the exchange: `nil` until the body has been read to its end.
    public var metrics: TransportMetrics? { ending.metrics }

    public func makeAsyncIterator() -> AsyncIterator {
        switch source {
        case .whole(let data): AsyncIterator(whole: data.isEmpty ? nil : data, pull: nil, ending: ending)
        case .chunks(let makePull): AsyncIterator(whole: nil, pull: makePull(), ending: ending)
        }
    }

    /// Reads the chunks in order; counts them for the metrics.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var whole: Data?
        var pull: (() async throws -> Data?)?
        let ending: Ending
        var received: Int64 = 0

        /// The next chunk (never empty), or `nil` at the end of the body.
        public mutating func next() async throws -> Data? {
            if let chunk = whole {
                whole = nil
                return chunk
            }
            while let pull {
                guard let chunk = try await pull() else {
                    self.pull = nil
                    ending.end(bytesReceived: received)
                    return nil
                }
                received += Int64(chunk.count)
                if !chunk.isEmpty { return chunk }
            }
            return nil
        }
    }

    /// Where the metrics are kept once the body has ended.
    final class Ending: Sendable {
        private enum Source: Sendable {
            /// A whole body's metrics, known from the start.
            case known(TransportMetrics)
            /// A streamed body's: made by `finish` from the bytes received, once, when it ends.
            case measured(finish: @Sendable (Int64) -> TransportMetrics, ended: Locked<TransportMetrics?>)
        }

        private let source: Source

        init(metrics: TransportMetrics) {
            source = .known(metrics)
        }

        init(finish: @escaping @Sendable (Int64) -> TransportMetrics) {
            source = .measured(finish: finish, ended: Locked(nil))
        }

        var metrics: TransportMetrics? {
            switch source {
            case .known(let metrics): metrics
            case .measured(_, let ended): ended.value
            }
        }

        func end(bytesReceived: Int64) {
            guard case .measured(let finish, let ended) = source, ended.value == nil else { return }
            let metrics = finish(bytesReceived)
            ended.withLock { $0 = $0 ?? metrics }
        }
    }
}
