import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

extension Exchange {
    /// How many bytes of body may arrive before the reader asks for them; past that, the client
    /// reads no more until the reader takes some.
    static let readAhead = 512 * 1024
    /// The most bytes of waiting chunks handed to the reader as one (a single larger chunk, as
    /// decompression may make, is handed out as it is).
    static let largestHandout = 256 * 1024

    /// What the reader gets at once: the chunk it asked for and those that waited behind it,
    /// so that a reader slower than the network takes many reads' worth in one step.
    struct Handout {
        var first: ByteBuffer
        var more: [ByteBuffer] = []

        var readableBytes: Int { more.reduce(first.readableBytes) { $0 + $1.readableBytes } }

        /// The bytes, copied once into one `Data`.
        var data: Data {
            guard !more.isEmpty else { return Data(buffer: first, byteTransferStrategy: .copy) }
            var data = Data(capacity: readableBytes)
            func append(_ buffer: ByteBuffer) {
                buffer.withUnsafeReadableBytes { data.append($0.bindMemory(to: UInt8.self)) }
            }
            append(first)
            more.forEach(append)
            return data
        }
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
        /// Chunks that arrived before they were asked for, and their bytes.
        var chunks = CircularBuffer<ByteBuffer>(initialCapacity: 4)
        var waitingBytes = 0
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
            var readWaiter: CheckedContinuation<Handout?, any Error>?
            var demand: EventLoopPromise<Void>?
            var timer: Scheduled<Void>?
            var task: HTTPClient.Task<Void>?
        }

        /// Moves to `.failed` and takes everything that must hear of it; `nil` when already over.
        mutating func fail(_ error: any Error) -> Ended? {
            guard phase.isActive else { return nil }
            phase = .failed(error)
            defer {
                headWaiter = nil
                readWaiter = nil
                demand = nil
                timer = nil
                task = nil
            }
            return Ended(headWaiter: headWaiter, readWaiter: readWaiter, demand: demand, timer: timer, task: task)
        }

        /// The chunks waiting (up to `largestHandout` bytes of them, at least one), the end
        /// (`nil`) or the failure when one is ready, with the client's demand to complete when
        /// chunks were taken; `ready` is `nil` when the reader must wait.
        mutating func takeChunk() -> (ready: Result<Handout?, any Error>?, demand: EventLoopPromise<Void>?) {
            if let chunk = chunks.popFirst() {
                var handout = Handout(first: chunk)
                var taken = chunk.readableBytes
                while let next = chunks.first, taken + next.readableBytes <= Exchange.largestHandout {
                    handout.more.append(chunks.removeFirst())
                    taken += next.readableBytes
                }
                waitingBytes -= taken
                defer { demand = nil }
                return (.success(handout), demand)
            }
            switch phase {
            case .waitingForHead, .streaming: return (nil, nil)
            case .ended: return (.success(nil), nil)
            case .failed(let error): return (.failure(error), nil)
            }
        }

        /// Since when the exchange has been waited on without news; `nil` when nobody waits.
        var idleSince: ContinuousClock.Instant? {
            switch phase {
            case .waitingForHead:
                return lastActivity
            case .streaming:
                guard readWaiter != nil else { return nil }
                return max(lastActivity, readStarted ?? lastActivity)
            case .ended, .failed:
                return nil
            }
        }
    }
}
