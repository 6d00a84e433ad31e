import Foundation

extension URLSessionTransport {
    /// What the response's body holds: releasing it before anyone started reading ends the
    /// exchange (its task is cancelled), so a body dropped unread stops the transfer.
    final class BodyOwner: Sendable {
        let state: TaskState

        init(_ state: TaskState) { self.state = state }

        deinit { state.dropIfUnread() }
    }

    /// What reads one exchange's body; releasing it before the body's end ends the exchange
    /// (its task is cancelled), so a reader that stops early stops the transfer.
    final class BodyReader: Sendable {
        let state: TaskState

        init(_ state: TaskState) { self.state = state }

        deinit { state.fail(CancellationError()) }

        /// The next chunk, or `nil` at the end of the body.
        func next() async throws -> Data? { try await state.nextChunk() }
    }

    /// The head of one exchange (one request, no redirects followed).
    struct Head: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var url: URL?
        var timeToFirstByte: Duration?
        var bytesSent: Int64
    }
}

extension URLSessionTransport.TaskState {
    /// A piece of the body arrived: it goes to the waiting reader, or waits for one. Fails the
    /// exchange once the body passes the size limit; ends the running task once more than
    /// `bufferLimit` bytes wait unread in a body that can be continued with a range.
    func received(_ data: Data) {
        let now = ContinuousClock.now
        let limit = request.maxResponseBytes
        typealias Delivery = (reader: CheckedContinuation<Data?, any Error>?, overLimit: Bool, peak: Int?, pause: Ended?)
        let delivery: Delivery? = state.withLock { state in
            guard !state.ended, (state.resumption?.phase ?? .streaming) == .streaming else { return nil }
            state.lastActivity = now
            if state.firstByte == nil { state.firstByte = now }
            guard data.count <= limit - state.received else { return (nil, true, nil, nil) }
            state.received += data.count
            if let reader = state.reader {
                state.reader = nil
                return (reader, false, nil, nil)
            }
            state.chunks.append(data)
            state.buffered += data.count
            let peak = state.buffered > state.peakBuffered ? state.buffered : nil
            state.peakBuffered = max(state.peakBuffered, state.buffered)
            return (nil, false, peak, state.pause(over: bufferLimit))
        }
        guard let delivery else {
            statistics.noteIgnored(data.count)
            return
        }
        if let peak = delivery.peak { statistics.notePeak(peak) }
        if let pause = delivery.pause {
            statistics.notePause()
            pause.cancelTask?()
            pause.onEnd?()
        }
        if delivery.overLimit { fail(GatewayError.responseTooLarge(request, limit: limit, declared: nil)) }
        delivery.reader?.resume(returning: data)
    }

    /// The next chunk of the body, waiting for it if none is in hand; `nil` at the end.
    /// Cancelling the task ends the exchange.
    func nextChunk() async throws -> Data? {
        if let ready = state.withLock({ $0.takeChunk() }) { return try ready.get() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                let now = ContinuousClock.now
                let (ready, rest): (Result<Data?, any Error>?, (() -> Void)?) = state.withLock { state in
                    if let ready = state.takeChunk() { return (ready, nil) }
                    state.reader = continuation
                    return (nil, state.takeRest(of: request, now: now))
                }
                if let ready { continuation.resume(with: ready) }
                rest?()
            }
        } onCancel: {
            fail(CancellationError())
        }
    }

    /// Whether the body has a reader; the first caller becomes it (a body is read once).
    func takeReader() -> Bool {
        state.withLock { state in
            defer { state.readerTaken = true }
            return !state.readerTaken
        }
    }

    /// Ends the exchange when its body was never read (the response was dropped unread).
    func dropIfUnread() {
        if !state.withLock({ $0.readerTaken }) { fail(CancellationError()) }
    }
}
