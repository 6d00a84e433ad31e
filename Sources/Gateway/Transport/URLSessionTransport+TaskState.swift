import Foundation

extension URLSessionTransport {
    /// The state of one `URLSessionTask`, fed by the session delegate: its head goes to the
    /// sending task, its body chunks to the body's reader.
    ///
    /// The exchange ends exactly once: by the delegate's completion, by a limit (size, idle
    /// timeout, deadline), by cancellation, or by its reader being dropped. Chunks not yet read
    /// wait in `chunks`; their total never passes `request.maxResponseBytes`, because a body past
    /// that fails the exchange in the delegate's callback, before the platform's next piece. A body
    /// that can be continued with a range (`RangeResumption`) never has more than `bufferLimit`
    /// bytes waiting, plus the piece that passed it: the exchange ends there and the rest is asked
    /// for once the reader has taken them (see `URLSessionTransport+Resuming.swift`).
    final class TaskState: Sendable {
        struct State {
            var headContinuation: CheckedContinuation<Head, any Error>?
            var head: Result<Head, any Error>?
            var reader: CheckedContinuation<Data?, any Error>?
            var chunks: [Data] = []
            var nextChunk = 0
            /// The bytes in `chunks` not yet read, and the most there have been.
            var buffered = 0
            var peakBuffered = 0
            /// How the body goes on past `bufferLimit`; `nil`: it is buffered whole.
            var resumption: RangeResumption?
            /// Starts the request for the rest of the body (set by the transport).
            var startRest: (@Sendable (HTTPRequest) -> Void)?
            var failure: (any Error)?
            var completed = false
            var readerTaken = false
            var cancelTask: (@Sendable () -> Void)?
            var onEnd: (@Sendable () -> Void)?
            var status = 0
            var headers = HTTPHeaders()
            var url: URL?
            var received = 0
            var expectedLength: Int?
            var lastActivity: ContinuousClock.Instant
            var firstByte: ContinuousClock.Instant?
            var bytesSent: Int64 = 0
            /// The platform is waiting for the redirect decision; cancelling the task now would
            /// crash FoundationNetworking on Linux ("Received callback for HTTP redirection, but
            /// we're not waiting for it"), so a cancel is held until the response head arrives.
            var redirectPending = false
            var cancelHeld = false

            var ended: Bool { completed || failure != nil }

            /// Takes the continuations waiting on the exchange and the `onEnd` action.
            mutating func takeWaiters() -> Ended {
                defer {
                    headContinuation = nil
                    reader = nil
                    onEnd = nil
                }
                return Ended(head: headContinuation, reader: reader, onEnd: onEnd)
            }

            /// The head as it stands.
            func makeHead(request: HTTPRequest, callStarted: ContinuousClock.Instant) -> Head {
                // Without upload progress callbacks, a response means the server read the whole body.
                let sent = bytesSent > 0 ? bytesSent : (request.body?.length ?? 0)
                return Head(status: status, headers: headers, url: url,
                            timeToFirstByte: firstByte.map { $0 - callStarted }, bytesSent: sent)
            }

            /// The next chunk in hand, the end or the failure; `nil` when the reader must wait.
            mutating func takeChunk() -> Result<Data?, any Error>? {
                if nextChunk < chunks.count {
                    let chunk = chunks[nextChunk]
                    chunks[nextChunk] = Data()
                    nextChunk += 1
                    buffered -= chunk.count
                    if nextChunk == chunks.count {
                        chunks.removeAll(keepingCapacity: true)
                        nextChunk = 0
                    }
                    return .success(chunk)
                }
                if let failure { return .failure(failure) }
                return completed ? .success(nil) : nil
            }
        }

        let request: HTTPRequest
        let started: ContinuousClock.Instant
        let callStarted: ContinuousClock.Instant
        let idleTimeout: Duration
        /// The most unread bytes held before a body that can be continued with a range is ended.
        let bufferLimit: Int
        let statistics: BufferStatistics
        let state: Locked<State>

        init(request: HTTPRequest, idleTimeout: Duration, callStarted: ContinuousClock.Instant,
             bufferLimit: Int = .max, statistics: BufferStatistics = BufferStatistics()) {
            let now = ContinuousClock.now
            self.request = request
            self.started = now
            self.callStarted = callStarted
            self.idleTimeout = idleTimeout
            self.bufferLimit = bufferLimit
            self.statistics = statistics
            self.state = Locked(State(lastActivity: now))
        }

        /// Sets how to cancel the underlying task once a limit or the caller ends the exchange,
        /// and what to do once the exchange has ended (stop routing callbacks to it).
        ///
        /// - Returns: `false` when the exchange has already ended (nothing was set).
        @discardableResult
        func setCancel(_ cancel: @escaping @Sendable () -> Void, onEnd: @escaping @Sendable () -> Void) -> Bool {
            state.withLock {
                guard !$0.ended else { return false }
                $0.cancelTask = cancel
                $0.onEnd = onEnd
                return true
            }
        }

        /// Installs the continuation waiting for the head; returns `false` when the head or a
        /// failure is already known, in which case the continuation has been resumed.
        func install(_ continuation: CheckedContinuation<Head, any Error>) -> Bool {
            let known: Result<Head, any Error>? = state.withLock { state in
                if let head = state.head { return head }
                if let failure = state.failure { return .failure(failure) }
                state.headContinuation = continuation
                return nil
            }
            guard let known else { return true }
            continuation.resume(with: known)
            return false
        }

        /// Ends the exchange with an error and cancels the underlying task; later events are
        /// ignored. Chunks not yet read are dropped: the reader gets the error next.
        func fail(_ error: any Error) {
            let ended = state.withLock { state -> Ended? in
                guard !state.ended else { return nil }
                state.failure = error
                state.chunks = []
                state.nextChunk = 0
                state.buffered = 0
                var ended = state.takeWaiters()
                if state.redirectPending {
                    state.cancelHeld = true
                } else {
                    ended.cancelTask = state.cancelTask
                }
                return ended
            }
            guard let ended else { return }
            ended.cancelTask?()
            ended.onEnd?()
            ended.head?.resume(throwing: error)
            ended.reader?.resume(throwing: error)
        }

        /// The platform asks whether to follow a redirect.
        ///
        /// - Returns: `false` when the exchange has already ended (and its task was cancelled): the
        ///   platform's completion handler must then not be called at all.
        func redirectAsked() -> Bool {
            state.withLock { state in
                guard !state.ended else { return false }
                state.redirectPending = true
                return true
            }
        }

        /// The platform is past the redirect decision: a cancel held meanwhile is safe to send now.
        private func redirectSettled() {
            let cancelTask: (@Sendable () -> Void)? = state.withLock { state in
                state.redirectPending = false
                guard state.cancelHeld else { return nil }
                state.cancelHeld = false
                return state.cancelTask
            }
            cancelTask?()
        }

        /// The response head arrived: the sending task gets it.
        ///
        /// - Returns: `false` when the declared length is already over the limit (the exchange
        ///   has then failed and the task should be cancelled).
        func received(status: Int, headers: HTTPHeaders, url: URL?) -> Bool {
            redirectSettled()
            if let resuming = restArrived(status: status, headers: headers) { return resuming }
            let now = ContinuousClock.now
            let limit = request.maxResponseBytes
            let carriesBody = request.method != .head && !(100..<200).contains(status) && status != 204 && status != 304
            // A redirect's body is never read: the platform may already be asking about it.
            if carriesBody, !(300..<400).contains(status), let invalid = URLSessionTransport.invalidContentLength(in: headers) {
                fail(URLSessionTransport.invalidContentLength(invalid, request: request))
                return false
            }
            let outcome: Result<(CheckedContinuation<Head, any Error>?, Head), GatewayError>? = state.withLock { state in
                guard !state.ended, state.head == nil else { return nil }
                state.status = status
                state.headers = headers
                state.url = url
                state.lastActivity = now
                state.firstByte = now
                state.expectedLength = carriesBody ? headers.declaredBodyLength : nil
                if bufferLimit < limit {
                    state.resumption = RangeResumption(request: request, status: status, headers: headers)
                }
                if let expected = state.expectedLength, expected > limit {
                    return .failure(GatewayError.responseTooLarge(request, limit: limit, declared: expected))
                }
                let head = state.makeHead(request: request, callStarted: callStarted)
                state.head = .success(head)
                defer { state.headContinuation = nil }
                return .success((state.headContinuation, head))
            }
            switch outcome {
            case .success(let (continuation, head))?:
                continuation?.resume(returning: head)
                return true
            case .failure(let tooLarge)?:
                fail(tooLarge)
                return false
            case nil:
                return true
            }
        }

        /// Body bytes went out.
        func sent(total: Int64) {
            let now = ContinuousClock.now
            state.withLock { state in
                state.lastActivity = now
                state.bytesSent = max(state.bytesSent, total)
            }
            request.bodyProgress?.sent(total, of: request.body?.length)
        }

        /// What `fail` and `completed` hand on outside the lock.
        struct Ended {
            var head: CheckedContinuation<Head, any Error>?
            var reader: CheckedContinuation<Data?, any Error>?
            var onEnd: (@Sendable () -> Void)?
            var cancelTask: (@Sendable () -> Void)? = nil
        }

        /// Ends the exchange: takes what waits for it, without cancelling the task.
        func end(_ outcome: Result<Head?, any Error>) {
            let ended = state.withLock { state -> (Ended, Result<Head, any Error>?)? in
                guard !state.ended else { return nil }
                switch outcome {
                case .failure(let failure):
                    // The chunks that arrived before the failure are still read, then the failure:
                    // a download resumes after the last byte it wrote.
                    state.failure = failure
                    return (state.takeWaiters(), .failure(failure))
                case .success(let head):
                    state.completed = true
                    if let head { state.head = .success(head) }
                    return (state.takeWaiters(), state.head)
                }
            }
            guard let (waiters, head) = ended else { return }
            waiters.onEnd?()
            if let head { waiters.head?.resume(with: head) }
            switch outcome {
            case .failure(let failure): waiters.reader?.resume(throwing: failure)
            case .success: waiters.reader?.resume(returning: nil)
            }
        }
    }
}
