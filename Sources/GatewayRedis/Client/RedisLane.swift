import Dispatch
import Gateway

/// One connection of a `RedisClient` and the calls waiting for it, in the order they came.
///
/// A call owns the lane from the moment it gets its turn until it has its replies, and does the
/// socket work itself, on its own thread: it writes its commands and waits for the replies in
/// `poll`. When the lane is idle and Redis answers within `inlineWait` (1 ms) that is the whole
/// path, with no other thread woken: a round trip to a Redis on the same machine costs what
/// `redis-benchmark`'s does, a write, one wait and a read. When the lane is busy the call
/// suspends (a continuation, not a blocked thread) and the call before it hands the lane over as
/// it finishes; calls get their turns first come, first served.
///
/// Blocking the thread is a choice: when the call runs on Swift concurrency's cooperative pool,
/// that pool thread waits for Redis instead of running other tasks, for one round trip and never
/// longer than `inlineWait` nor the call's deadline. Replies that take longer (a command Redis
/// holds, such as `BLPOP`, a slow or silent server) are waited for on the lane's dispatch queue
/// while the call suspends, so Redis cannot hold the pool's threads. A hand-off to a thread on
/// every call cost two thread wake-ups, which on an idle machine cost more than the round trip
/// and varied tenfold between runs. The part that can block long, connecting (name resolution,
/// `connect`, `AUTH`, `SELECT`), also runs on the lane's queue, never on the caller's thread.
///
/// A connection that fails is dropped and the next call connects again; a call that meets a
/// dropped connection it reused (the server restarted, an idle timeout closed it) runs once more
/// on a fresh one. A call whose deadline passed while it waited for its turn fails without
/// touching the network. Cancelling a waiting call takes it out of the line; cancelling a call
/// that is waiting for its replies shuts its socket down, so it ends at once and the connection
/// is made again by the next call.
final class RedisLane: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        /// The idle connection, or `nil` while a call owns it (or before the first connect).
        var connection: RedisConnection?
        /// Whether a call owns the lane.
        var busy = false
        var closed = false
        var waiters: [Waiter] = []
        var head = 0
        /// The call waiting on the socket now, and the handle its cancellation shuts down.
        var exchange: (id: UInt64, socket: TCPSocket.ShutdownHandle)?
        /// Whether that call's socket was shut down by its cancellation.
        var interrupted = false
        /// The owning call's connection while the lane's queue reads its replies.
        var parked: RedisConnection?

        var waiting: Int { waiters.count - head }

        mutating func popWaiter() -> Waiter? {
            guard head < waiters.count else { return nil }
            let waiter = waiters[head]
            head += 1
            if head == waiters.count {
                waiters.removeAll(keepingCapacity: true)
                head = 0
            }
            return waiter
        }
    }

    let url: RedisURL
    let limits: RESPLimits
    /// The lane's one lock. It is the package's `Locked`, not `Synchronization.Mutex`: the
    /// connection (not `Sendable`) moves out to the owning call and back, which `Mutex`'s
    /// `sending` closures refuse; the `busy` flag makes the owner the only user meanwhile.
    private let state = Locked(State())
    /// Where connections are made, off the callers' threads.
    let connector: DispatchQueue

    init(url: RedisURL, limits: RESPLimits, name: String) {
        self.url = url
        self.limits = limits
        connector = DispatchQueue(label: name)
    }

    /// The call owning the lane and the calls waiting for it.
    var load: Int {
        state.withLock { ($0.busy ? 1 : 0) + $0.waiting }
    }

    /// Sends `commands` and reads their replies, when the lane's turn comes, by `deadline`.
    ///
    /// - Throws: `RedisError`; `CancellationError` when the task was cancelled before the
    ///   commands were sent, or while it waited for their replies.
    func call(_ commands: [RedisCommand], id: UInt64, deadline: ContinuousClock.Instant) async throws
        -> [RESPValue]
    {
        try await takeTurn(id: id)
        var connection = state.withLock { $0.connection.take() }
        do {
            try Task.checkCancellation()
            guard ContinuousClock.now < deadline else {
                throw RedisError(.timeout, "timed out waiting for a connection to Redis at \(url)")
            }
            let replies = try await perform(commands, id: id, deadline: deadline, on: &connection)
            release(connection)
            return replies
        } catch {
            release(connection)
            throw error
        }
    }

    /// Fails the waiting calls with `RedisError` of kind `.closed` and closes the idle connection;
    /// a call owning the lane finishes (its deadline bounds it) and closes the connection after.
    func close() {
        let waiters = state.withLock { state -> [Waiter] in
            state.closed = true
            state.connection.take()?.close()
            defer {
                state.waiters.removeAll()
                state.head = 0
            }
            return Array(state.waiters[state.head...])
        }
        for waiter in waiters { waiter.continuation.resume(throwing: closedError) }
    }

    private var closedError: RedisError { RedisError(.closed, "the Redis client for \(url) was closed") }

    /// Returns when the lane is this call's: at once when it is idle.
    private func takeTurn(id: UInt64) async throws {
        enum Turn { case now, closed, wait }
        let turn = state.withLock { state -> Turn in
            if state.closed { return .closed }
            if state.busy { return .wait }
            state.busy = true
            return .now
        }
        switch turn {
        case .now: return
        case .closed: throw closedError
        case .wait: break
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let answer = state.withLock { state -> Result<Void, any Error>? in
                    if state.closed { return .failure(closedError) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if !state.busy {
                        state.busy = true
                        return .success(())
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let answer { continuation.resume(with: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters[state.head...].firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Records the call `id` as waiting on `socket`; `false` when its task is already cancelled.
    func beginExchange(id: UInt64, socket: TCPSocket.ShutdownHandle) -> Bool {
        state.withLock { state in
            state.exchange = (id, socket)
            state.interrupted = false
        }
        // Looked at after recording: a cancellation from here on finds the socket and shuts it down.
        guard !Task.isCancelled else {
            _ = endExchange()
            return false
        }
        return true
    }

    /// Ends the exchange the owning call recorded; `true` when its cancellation shut the socket down.
    func endExchange() -> Bool {
        state.withLock { state in
            state.exchange = nil
            defer { state.interrupted = false }
            return state.interrupted
        }
    }

    /// Shuts down the socket of the call `id`, if it is waiting on one. The socket is open: the
    /// owning call closes it only after `endExchange`, which takes the same lock.
    func interruptExchange(id: UInt64) {
        state.withLock { state in
            guard let exchange = state.exchange, exchange.id == id else { return }
            state.interrupted = true
            exchange.socket.shutDown()
        }
    }

    /// Reads `count` more replies on `connection` by `deadline` on the lane's queue, while the
    /// owning call is suspended. The connection goes to the queue's thread through the lock (it
    /// is not `Sendable`); the owner gets it back only after the read, so one thread uses it at a time.
    func readOffThread(_ connection: RedisConnection, count: Int, deadline: ContinuousClock.Instant) async
        -> Result<[RESPValue], RedisError>
    {
        state.withLock { $0.parked = connection }
        defer { state.withLock { $0.parked = nil } }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Result<[RESPValue], RedisError>, Never>) in
            connector.async { [self] in
                guard let parked = state.withLock({ $0.parked }) else {
                    return continuation.resume(returning: .failure(RedisError(.connection, "no connection to read from")))
                }
                var replies: [RESPValue] = []
                do throws(RedisError) {
                    try parked.readReplies(&replies, count: count, deadline: deadline)
                    continuation.resume(returning: .success(replies))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
    }

    /// Gives the lane, with `connection` (`nil` when it was dropped), to the next waiting call.
    private func release(_ connection: RedisConnection?) {
        let next = state.withLock { state -> Waiter? in
            state.connection = connection
            guard !state.closed else {
                state.connection.take()?.close()
                state.busy = false
                return nil
            }
            guard let waiter = state.popWaiter() else {
                state.busy = false
                return nil
            }
            return waiter
        }
        next?.continuation.resume()
    }
}
