import Foundation

// How a body that can be continued with a range (`RangeResumption`) goes on when its reader is
// behind, without ever making a delegate callback wait:
//
// 1. `received(_:)` (the delegate queue) appends a piece; once more than `bufferLimit` bytes
//    wait unread, `pause(over:)` marks the exchange paused and hands back the running task's
//    cancel and unregistration, which run at once (the cancel on the transport's cancellation
//    queue). Pieces the platform had already queued for that task find no exchange and are
//    dropped (counted in `BufferStatistics`); the body goes on from the last byte kept.
// 2. `nextChunk()` (the reader) takes what was kept; when none is left and it must wait,
//    `takeRest(of:now:)` marks the exchange resuming and the transport starts the request for
//    the rest (`Range`, `If-Range`) as a new task that feeds the same exchange.
// 3. `restArrived(status:headers:)` checks that request's head: a `206` for exactly the bytes
//    asked for continues the body; anything else ends it with the `RangeResumption.refusal`
//    (a `.transport` failure retried as a lost connection, so a download resumes from its file
//    or starts over when the representation changed).
extension URLSessionTransport.TaskState.State {
    /// Marks the exchange paused when more than `limit` bytes wait unread and the rest can be
    /// asked for; returns the running task's cancel and unregistration, to run outside the lock.
    mutating func pause(over limit: Int) -> URLSessionTransport.TaskState.Ended? {
        guard buffered > limit, var resumption, resumption.phase == .streaming,
              let expectedLength, received < expectedLength
        else { return nil }
        resumption.phase = .paused
        self.resumption = resumption
        defer {
            cancelTask = nil
            onEnd = nil
        }
        return URLSessionTransport.TaskState.Ended(onEnd: onEnd, cancelTask: cancelTask)
    }

    /// When the exchange is paused and its reader has taken every piece kept (it is about to
    /// wait): marks it resuming and returns what starts the request for the rest.
    mutating func takeRest(of request: HTTPRequest, now: ContinuousClock.Instant) -> (() -> Void)? {
        guard var resumption, resumption.phase == .paused, nextChunk == chunks.count, let startRest else { return nil }
        resumption.phase = .resuming
        self.resumption = resumption
        lastActivity = now
        let rest = resumption.request(request, from: received)
        return { startRest(rest) }
    }
}

extension URLSessionTransport.TaskState {
    /// Sets what starts the request for the rest of the body once a paused exchange has been
    /// drained: the transport's, which runs it as a new task feeding this exchange.
    func setStartRest(_ start: @escaping @Sendable (HTTPRequest) -> Void) {
        state.withLock { $0.startRest = start }
    }

    /// The head of the request for the rest arrived.
    ///
    /// - Returns: `nil` when the exchange is not waiting for one (this is the first head);
    ///   otherwise whether the body goes on (when it does not, the exchange has failed with the
    ///   reason and the task should be cancelled).
    func restArrived(status: Int, headers: HTTPHeaders) -> Bool? {
        enum Answer { case notRest, accepted, refused(GatewayError) }
        let now = ContinuousClock.now
        let answer: Answer = state.withLock { state in
            guard var resumption = state.resumption, resumption.phase == .resuming, !state.ended else { return .notRest }
            if let refusal = resumption.refusal(status: status, headers: headers, delivered: state.received,
                                                request: request) {
                return .refused(refusal)
            }
            resumption.phase = .streaming
            state.resumption = resumption
            state.lastActivity = now
            return .accepted
        }
        switch answer {
        case .notRest:
            return nil
        case .accepted:
            statistics.noteResumption()
            return true
        case .refused(let refusal):
            fail(refusal)
            return false
        }
    }
}
