import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension Exchange {
    /// How many bytes of body may arrive before the reader asks for them; past that, the client
    /// reads no more until the reader takes some.
    static let readAhead = 512 * 1024
    /// The chunks handed to the reader at once: all those that waited, in order (at least one).
    typealias Handout = CircularBuffer<ByteBuffer>

    /// Where the chunks go once a consumer is installed: `consume`, called on the event loop as
    /// each arrives, and the task that waits for the body's end.
    struct Consumer {
        var consume: @Sendable (ByteBuffer) throws -> Void
        var ending: CheckedContinuation<Void, any Error>
    }

    /// The waiting reader and what it is resumed with: the chunks that waited, else the body's
    /// end or its failure.
    struct Reader {
        var continuation: CheckedContinuation<Handout?, any Error>
        var ready: Result<Handout?, any Error>

        func resume() { continuation.resume(with: ready) }
    }

    enum Phase {
        case waitingForHead
        /// The head has arrived; the body has not ended.
        case streaming
        /// The body has ended (chunks may still wait to be read).
        case ended
        /// The exchange failed or was cancelled (chunks that arrived before may still be read).
        case failed(any Error)

        var isActive: Bool {
            switch self {
            case .waitingForHead, .streaming: true
            case .ended, .failed: false
            }
        }
    }

    /// What one exchange has received and who waits for it, behind the exchange's lock.
    struct State {
        var phase = Phase.waitingForHead
        var headWaiter: CheckedContinuation<HTTPResponseHead, any Error>?
        var readWaiter: CheckedContinuation<Handout?, any Error>?
        /// The consumer chunks go to on the event loop as they arrive, once one is installed
        /// (see `Exchange.deliver`), and the task waiting for the body's end.
        var consumer: Consumer?
        /// Chunks that arrived before they were asked for (`nil` when none waits: a buffer is
        /// made only for chunks that must wait), and their bytes.
        var chunks: Handout?
        var waitingBytes = 0
        /// Whether a hand-over of the chunks to the waiting reader is queued on the event loop.
        var handOverQueued = false
        /// Completed when the reader takes chunks: until then the client reads no more.
        var demand: EventLoopPromise<Void>?
        var task: HTTPClient.Task<Void>?
        var timer: Scheduled<Void>?
        var lastActivity: ContinuousClock.Instant
        /// When the reader started waiting for the chunk it waits for.
        var readStarted: ContinuousClock.Instant?
        var sent: Int64 = 0
        /// Bytes of the body the client has written to the connection (for `bodyProgress`).
        var partsSent: Int64 = 0

        init(lastActivity: ContinuousClock.Instant) { self.lastActivity = lastActivity }

        /// What waits to be handed out once the exchange has ended.
        struct Ended {
            var headWaiter: CheckedContinuation<HTTPResponseHead, any Error>?
            var reader: Reader?
            var consumer: Consumer?
            var demand: EventLoopPromise<Void>?
            var timer: Scheduled<Void>?
            var task: HTTPClient.Task<Void>?
        }

        /// Keeps a chunk that arrived before it was asked for.
        mutating func keep(_ chunk: ByteBuffer) {
            if chunks == nil { chunks = Handout(initialCapacity: 4) }
            chunks?.append(chunk)
            waitingBytes += chunk.readableBytes
        }

        /// Moves to `.failed` and takes everything that must hear of it (a waiting reader gets the
        /// chunks that waited first, then the error); `nil` when already over.
        mutating func fail(_ error: any Error) -> Ended? {
            guard phase.isActive else { return nil }
            phase = .failed(error)
            var ended = Ended(headWaiter: headWaiter, consumer: consumer, demand: demand, timer: timer, task: task)
            headWaiter = nil
            consumer = nil
            demand = nil
            timer = nil
            task = nil
            ended.reader = takeReader().reader
            return ended
        }

        /// All the chunks waiting, the end (`nil`) or the failure when one is ready, with the
        /// client's demand to complete when chunks were taken; `ready` is `nil` when the reader
        /// must wait.
        mutating func takeChunks() -> (ready: Result<Handout?, any Error>?, demand: EventLoopPromise<Void>?) {
            if let handout = chunks {
                chunks = nil
                waitingBytes = 0
                defer { demand = nil }
                return (.success(handout), demand)
            }
            switch phase {
            case .waitingForHead, .streaming: return (nil, nil)
            case .ended: return (.success(nil), nil)
            case .failed(let error): return (.failure(error), nil)
            }
        }

        /// The waiting reader with what is ready for it, and the client's demand to complete;
        /// no reader when nobody waits or nothing is ready.
        mutating func takeReader() -> (reader: Reader?, demand: EventLoopPromise<Void>?) {
            guard let continuation = readWaiter else { return (nil, nil) }
            let (ready, demand) = takeChunks()
            guard let ready else { return (nil, nil) }
            readWaiter = nil
            return (Reader(continuation: continuation, ready: ready), demand)
        }

        /// Since when the exchange has been waited on without news; `nil` when nobody waits.
        var idleSince: ContinuousClock.Instant? {
            switch phase {
            case .waitingForHead:
                return lastActivity
            case .streaming:
                if consumer != nil { return lastActivity }
                guard readWaiter != nil else { return nil }
                return max(lastActivity, readStarted ?? lastActivity)
            case .ended, .failed:
                return nil
            }
        }
    }
}
