import Dispatch
import Foundation
import Gateway

/// One connection of a `RedisClient`, a thread of its own that works on it, and the calls
/// waiting for it, in the order they came.
///
/// The lane has one owner at a time, and only the owner touches the connection:
/// - **nobody**: the lane is idle; the connection (if any) rests in the lane's state;
/// - **a caller**: a call that found the lane idle with a connection writes its commands and
///   waits for the replies on its own thread, in `poll`, for at most `inlineWait` (1 ms). When
///   they come in time that is the whole path, with no other thread woken: a round trip to a
///   Redis on the same machine costs what `redis-benchmark`'s does. When they do not, the call
///   hands the rest of the read (and the lane) to the thread and suspends;
/// - **the thread**: it finishes a handed-over read first, then runs the queued calls one after
///   the other (connecting when needed), each call suspended on a continuation that the thread
///   resumes once. It gives the lane back (to nobody) when nothing is left.
///
/// A call that finds the lane owned, or without a connection, is queued for the thread, so the
/// line moves on the thread, never waiting for a task to be scheduled, and connecting, which can
/// block, never runs on a caller's thread. Blocking a caller's thread for one round trip is a
/// choice: that thread may be one of Swift concurrency's cooperative pool, and it waits for Redis
/// instead of running other tasks, but never longer than `inlineWait`.
///
/// A connection that fails is dropped and the next call connects again; a call that meets a
/// dropped connection it reused (the server restarted, an idle timeout closed it) runs once more
/// on a fresh one. A queued call whose deadline passed fails without touching the network.
/// Cancelling a queued call takes it out of the line; cancelling a call whose commands are being
/// sent or answered shuts its socket down, so it ends at once and the next call connects again.
final class RedisLane: Sendable {
    /// A call for the thread: to run from the start, or, with `received`, a call whose commands
    /// were sent and whose first replies were read by its caller.
    struct Job: Sendable {
        let id: UInt64
        let commands: [RedisCommand]
        let deadline: ContinuousClock.Instant
        var received: [RESPValue]?
        /// Resumes the call's continuation; called exactly once, by whoever takes the job out of the lane.
        let complete: @Sendable (Result<[RESPValue], any Error>) -> Void
    }

    enum Owner { case nobody, caller, thread }

    struct State {
        var owner = Owner.nobody
        /// The connection while no caller holds it (`nil` before the first connect, after a failure).
        var connection: RedisConnection?
        var closed = false
        /// A call its caller handed over: the thread runs it before any queued call.
        var handedOver: Job?
        var queue: [Job] = []
        var head = 0
        /// The call whose commands are on the wire now, and its socket once it has one.
        var current: (id: UInt64, socket: TCPSocket.ShutdownHandle?)?
        /// Whether the current call was cancelled: its socket is (or will be) shut down.
        var interrupted = false

        var queued: Int { queue.count - head }

        mutating func popQueued() -> Job? {
            guard head < queue.count else { return nil }
            let job = queue[head]
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            }
            return job
        }
    }

    let url: RedisURL
    let limits: RESPLimits
    /// The lane's one lock. It is the package's `Locked`, not `Synchronization.Mutex`: the
    /// connection (not `Sendable`) moves out to the owner and back, which `Mutex`'s `sending`
    /// closures refuse; `owner` makes the owner the only user meanwhile.
    let state = Locked(State())
    /// Signalled once each time the lane is given to the thread.
    let wakeup = DispatchSemaphore(value: 0)

    init(url: RedisURL, limits: RESPLimits, name: String) {
        self.url = url
        self.limits = limits
        let thread = Thread { [self] in runThread() }
        thread.name = name
        thread.start()
    }

    /// The call owning the lane and the calls waiting for it.
    var load: Int {
        state.withLock { ($0.owner == .nobody ? 0 : 1) + $0.queued }
    }

    var closedError: RedisError { RedisError(.closed, "the Redis client for \(url) was closed") }

    /// Sends `commands` and reads their replies, when the lane's turn comes, by `deadline`.
    ///
    /// - Throws: `RedisError`; `CancellationError` when the task was cancelled before the
    ///   commands were sent, or while it waited for their replies.
    func call(_ commands: [RedisCommand], id: UInt64, deadline: ContinuousClock.Instant) async throws
        -> [RESPValue]
    {
        try await withTaskCancellationHandler {
            if let connection = takeIdleConnection(id: id) {
                return try await callInline(commands, id: id, deadline: deadline, on: connection)
            }
            return try await queue(commands, id: id, deadline: deadline)
        } onCancel: {
            cancel(id)
        }
    }

    /// The connection, with the lane, when the lane is idle and connected; `nil` otherwise.
    private func takeIdleConnection(id: UInt64) -> RedisConnection? {
        state.withLock { state -> RedisConnection? in
            guard state.owner == .nobody, !state.closed, let connection = state.connection.take() else { return nil }
            state.owner = .caller
            state.current = (id, connection.shutdownHandle)
            state.interrupted = false
            return connection
        }
    }

    /// Queues the call for the thread and waits for its end.
    private func queue(_ commands: [RedisCommand], id: UInt64, deadline: ContinuousClock.Instant) async throws
        -> [RESPValue]
    {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[RESPValue], any Error>) in
            let job = Job(id: id, commands: commands, deadline: deadline, received: nil) { continuation.resume(with: $0) }
            let refusal = state.withLock { state -> (any Error)? in
                if state.closed { return closedError }
                // A cancellation before the job was queued found nothing to take out of the line.
                if Task.isCancelled { return CancellationError() }
                state.queue.append(job)
                giveToThreadIfIdle(&state)
                return nil
            }
            if let refusal { continuation.resume(throwing: refusal) }
        }
    }

    /// Gives the idle lane to the thread (which then finds the work waiting for it).
    func giveToThreadIfIdle(_ state: inout State) {
        guard state.owner == .nobody else { return }
        state.owner = .thread
        wakeup.signal()
    }

    /// Takes the queued call `id` out of the line, or shuts down its socket when its commands are
    /// on the wire.
    private func cancel(_ id: UInt64) {
        let removed = state.withLock { state -> Job? in
            if let current = state.current, current.id == id {
                state.interrupted = true
                // The socket is open: its owner closes it only after clearing `current`, under this lock.
                current.socket?.shutDown()
                return nil
            }
            if let handedOver = state.handedOver, handedOver.id == id {
                state.handedOver = nil
                return handedOver
            }
            guard let index = state.queue[state.head...].firstIndex(where: { $0.id == id }) else { return nil }
            return state.queue.remove(at: index)
        }
        removed?.complete(.failure(CancellationError()))
    }

    /// Records `socket` as the one the current call's commands go on; `false` when the call was
    /// cancelled meanwhile (nothing must be sent).
    func beginExchange(on socket: TCPSocket.ShutdownHandle) -> Bool {
        state.withLock { state in
            guard !state.interrupted else { return false }
            state.current?.socket = socket
            return true
        }
    }

    /// Ends the current call's exchange; `true` when its cancellation shut the socket down.
    func endExchange() -> Bool {
        state.withLock { state in
            state.current = nil
            defer { state.interrupted = false }
            return state.interrupted
        }
    }

    /// Fails the queued calls with `RedisError` of kind `.closed`; the owner finishes its call (its
    /// deadline bounds it), then the thread closes the connection and ends.
    func close() {
        let queued = state.withLock { state -> [Job] in
            state.closed = true
            defer {
                state.queue.removeAll()
                state.head = 0
            }
            giveToThreadIfIdle(&state)
            return Array(state.queue[state.head...])
        }
        for job in queued { job.complete(.failure(closedError)) }
    }
}
