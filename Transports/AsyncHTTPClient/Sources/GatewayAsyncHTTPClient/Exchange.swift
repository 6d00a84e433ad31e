import AsyncHTTPClient
import Gateway
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

/// One request and its response, as the client's delegate sees them, handed over to the task
/// that waits for the head and then to the one that reads the body.
///
/// No task of its own: the client calls the delegate methods on its event loop, and they resume
/// whichever reader is waiting (a reader waiting for the body once per read from the network,
/// with all of that read's chunks). A chunk that arrives before it is asked for waits here (up to
/// `readAhead` bytes: past that, the client is told to stop reading until the reader catches
/// up), so a small body that comes with its head is read without suspending, and a reader
/// slower than the network takes the chunks that waited in one step. The deadline is the client's own
/// (it bounds the whole exchange); the idle timeout, when the client's read timeout is not the
/// request's, is one timer on the event loop, checked when it fires and set again from the last
/// activity, counting only while someone waits for the exchange.
final class Exchange: HTTPClientResponseDelegate, Sendable {
    typealias Response = Void

    let request: HTTPRequest
    let idleTimeout: Duration
    /// Whether the exchange keeps the idle timeout itself (otherwise the client's read timeout does).
    let watchesIdleTime: Bool
    /// Where the client calls the delegate.
    let eventLoop: any EventLoop
    let state: NIOLockedValueBox<State>

    init(request: HTTPRequest, idleTimeout: Duration, watchesIdleTime: Bool, eventLoop: any EventLoop) {
        self.request = request
        self.idleTimeout = idleTimeout
        self.watchesIdleTime = watchesIdleTime
        self.eventLoop = eventLoop
        state = NIOLockedValueBox(State(lastActivity: .now))
    }

    /// Bytes of request body sent so far (counted for file bodies as they are read).
    var bytesSent: Int64 { state.withLockedValue { $0.sent } }

    /// Starts the request on `client`, its delegate calls on `eventLoop`, and returns its response head.
    ///
    /// - Throws: the client's error as it is, `CancellationError`, or the idle timeout's `GatewayError`.
    func start(on client: HTTPClient, _ clientRequest: HTTPClient.Request, deadline: NIODeadline?)
        async throws -> HTTPResponseHead
    {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let failure = state.withLockedValue { state -> (any Error)? in
                    if case .failed(let error) = state.phase { return error }
                    state.headWaiter = continuation
                    return nil
                }
                if let failure { return continuation.resume(throwing: failure) }
                let task = client.execute(
                    request: clientRequest, delegate: self, eventLoop: .delegate(on: eventLoop), deadline: deadline,
                    logger: nil)
                let cancelNow = state.withLockedValue { state -> Bool in
                    state.task = task
                    if case .failed = state.phase { return true }
                    return false
                }
                if cancelNow { return task.cancel() }
                task.futureResult.whenFailure { [self] error in taskFailed(error) }
                if watchesIdleTime { scheduleIdleCheck(at: .now + idleTimeout, on: task.eventLoop) }
            }
        } onCancel: {
            fail(CancellationError())
        }
    }

    /// The next chunks of the body, `nil` at its end: at once all those waiting, otherwise those
    /// of the client's next read.
    func nextChunks() async throws -> Handout? {
        let (ready, demand) = state.withLockedValue { $0.takeChunks() }
        demand?.succeed()
        if let ready { return try ready.get() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (ready, demand) = state.withLockedValue { state in
                    let taken = state.takeChunks()
                    if taken.ready == nil {
                        state.readWaiter = continuation
                        state.readStarted = .now
                    }
                    return taken
                }
                demand?.succeed()
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            fail(CancellationError())
        }
    }

    /// Ends the exchange with `error` unless it has already ended: whoever waits gets the error
    /// (a reader only once the chunks already here are read) and the client's request is cancelled.
    func fail(_ error: any Error) {
        guard let ended = state.withLockedValue({ $0.fail(error) }) else { return }
        ended.headWaiter?.resume(throwing: error)
        ended.reader?.resume()
        ended.consumer?.ending.resume(throwing: error)
        ended.demand?.fail(error)
        ended.timer?.cancel()
        ended.task?.cancel()
    }

    /// The reader is gone before the body's end: the request is cancelled.
    func abandon() { fail(CancellationError()) }

    /// A piece of a file body was read for sending: activity for the idle timeout.
    func sent(_ count: Int) {
        let now = ContinuousClock.now
        state.withLockedValue {
            $0.lastActivity = now
            $0.sent += Int64(count)
        }
    }

    // MARK: The client's delegate calls, on the task's event loop

    /// A piece of the body went out: its running total goes to the request's `bodyProgress`.
    func didSendRequestPart(task: HTTPClient.Task<Void>, _ part: IOData) {
        guard let progress = request.bodyProgress else { return }
        let total = state.withLockedValue { state -> Int64 in
            state.partsSent += Int64(part.readableBytes)
            return state.partsSent
        }
        progress.sent(total, of: request.body?.length)
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        let now = ContinuousClock.now
        let waiter = state.withLockedValue { state in
            state.lastActivity = now
            if case .waitingForHead = state.phase { state.phase = .streaming }
            defer { state.headWaiter = nil }
            return state.headWaiter
        }
        waiter?.resume(returning: head)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    /// A chunk waits for the reader; one that is waiting gets it with the rest of the same read,
    /// by a hand-over queued behind it on the event loop, so one wake-up carries the whole read.
    /// With a consumer installed (see `deliver`), the chunk goes to it here.
    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let now = ContinuousClock.now
        var consume: (@Sendable (ByteBuffer) throws -> Void)?
        let (queueHandOver, mustWait) = state.withLockedValue { state -> (Bool, Bool) in
            state.lastActivity = now
            guard case .streaming = state.phase else { return (false, false) }
            if let consumer = state.consumer {
                consume = consumer.consume
                return (false, false)
            }
            state.keep(buffer)
            let queue = state.readWaiter != nil && !state.handOverQueued
            if queue { state.handOverQueued = true }
            return (queue, state.waitingBytes >= Self.readAhead)
        }
        if let consume {
            do { try consume(buffer) } catch { fail(error) }
            return task.eventLoop.makeSucceededVoidFuture()
        }
        if queueHandOver { task.eventLoop.execute { [self] in handOver() } }
        guard mustWait else { return task.eventLoop.makeSucceededVoidFuture() }
        let demand = task.eventLoop.makePromise(of: Void.self)
        let stillWanted = state.withLockedValue { state -> Bool in
            guard case .streaming = state.phase, state.waitingBytes >= Self.readAhead else { return false }
            state.demand = demand
            return true
        }
        if !stillWanted { demand.succeed() }
        return demand.futureResult
    }

    /// The chunks that arrived since the reader began to wait, to the reader (if it still waits).
    private func handOver() {
        let (reader, demand) = state.withLockedValue { state in
            state.handOverQueued = false
            return state.takeReader()
        }
        demand?.succeed()
        reader?.resume()
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        finish()
    }

    /// Ends the body (a waiting reader gets the chunks that waited first); `false` when the head
    /// has not arrived or the exchange is already over.
    @discardableResult
    private func finish() -> Bool {
        let ended = state.withLockedValue { state -> State.Ended? in
            guard case .streaming = state.phase else { return nil }
            state.phase = .ended
            defer { state.timer = nil }
            let (reader, demand) = state.takeReader()
            defer { state.consumer = nil }
            return State.Ended(reader: reader, consumer: state.consumer, demand: demand, timer: state.timer)
        }
        guard let ended else { return false }
        ended.timer?.cancel()
        ended.demand?.succeed()
        ended.reader?.resume()
        ended.consumer?.ending.resume()
        return true
    }

    /// The client's task failed. A failure the client reports to the delegate has reached `fail`
    /// before this; one it does not report comes from a client already shut down (before the
    /// head) or, after the head, from a request body whose end could not be sent once the whole
    /// response had been delivered: then the response is complete and the body ends.
    private func taskFailed(_ error: any Error) {
        if !finish() { fail(error) }
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        fail(error)
    }

    // MARK: The idle timer

    private func scheduleIdleCheck(at instant: ContinuousClock.Instant, on eventLoop: any EventLoop) {
        let timer = eventLoop.scheduleTask(in: AsyncHTTPClientTransport.timeAmount(instant - .now)) { [self] in
            checkIdleTime(on: eventLoop)
        }
        let active = state.withLockedValue { state -> Bool in
            guard state.phase.isActive else { return false }
            state.timer = timer
            return true
        }
        if !active { timer.cancel() }
    }

    private func checkIdleTime(on eventLoop: any EventLoop) {
        let now = ContinuousClock.now
        let idleSince = state.withLockedValue { $0.idleSince }
        guard let idleSince else {
            // Nobody waits: the reader is busy, so the client is not reading either.
            if state.withLockedValue({ $0.phase.isActive }) { scheduleIdleCheck(at: now + idleTimeout, on: eventLoop) }
            return
        }
        if now - idleSince >= idleTimeout {
            fail(GatewayError.idleTimeout(request, after: idleTimeout))
        } else {
            scheduleIdleCheck(at: idleSince + idleTimeout, on: eventLoop)
        }
    }
}
