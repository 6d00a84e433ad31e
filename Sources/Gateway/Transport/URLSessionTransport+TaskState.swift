import Foundation

extension URLSessionTransport {
    /// The state of one `URLSessionTask`, fed by the session delegate: its head goes to the
    /// sending task, its body chunks to the body's reader.
    ///
    /// The exchange ends exactly once: by the delegate's completion, by a limit (size, idle
    /// timeout, deadline), by cancellation, or by its reader being dropped. Chunks not yet read
    /// wait in `chunks`; their total never passes `request.maxResponseBytes`, because a body past
    /// that fails the exchange in the delegate's callback, before the platform's next piece.
    final class TaskState: Sendable {
        struct State {
            var headContinuation: CheckedContinuation<Head, any Error>?
            var head: Result<Head, any Error>?
            var reader: CheckedContinuation<Data?, any Error>?
            var chunks: [Data] = []
            var nextChunk = 0
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
        let state: Locked<State>

        init(request: HTTPRequest, idleTimeout: Duration, callStarted: ContinuousClock.Instant) {
            let now = ContinuousClock.now
            self.request = request
            self.started = now
            self.callStarted = callStarted
            self.idleTimeout = idleTimeout
            self.state = Locked(State(lastActivity: now))
        }

        /// Sets how to cancel the underlying task once a limit or the caller ends the exchange,
        /// and what to do once the exchange has ended (stop routing callbacks to it).
        func setCancel(_ cancel: @escaping @Sendable () -> Void, onEnd: @escaping @Sendable () -> Void) {
            state.withLock {
                $0.cancelTask = cancel
                $0.onEnd = onEnd
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

        /// The task completed.
        ///
        /// - Parameters:
        ///   - error: the platform's error, if any.
        ///   - head: the task's final response head, used when the delegate never saw one
        ///     (FoundationNetworking reports a 3xx without `Location` only here, and drops its body).
        func completed(error: (any Error)?, head: (status: Int, headers: HTTPHeaders, url: URL?)?) {
            let progress = state.withLock { state in
                state.redirectPending = false
                state.cancelHeld = false
                return state.status == 0 ? nil : (received: state.received, expected: state.expectedLength)
            }
            if let error {
                var mapped = URLSessionTransport.map(error, request: request, idleTimeout: idleTimeout)
                if var failure = mapped as? GatewayError, URLSessionTransport.isConnectionLoss(failure), let progress {
                    // The head arrived, so the body was cut off, whatever code the platform chose.
                    let expected = progress.expected.map { " of the \($0) bytes its Content-Length announced" } ?? ""
                    let said = URLSessionTransport.platformText(of: error).map { " (the platform said: \"\($0)\")" } ?? ""
                    failure.message = "connection lost: the body ended after \(progress.received) bytes\(expected)\(said)"
                    failure.fix = "the server closed or reset the connection mid-body; retry, or check the server"
                    mapped = failure
                }
                end(.failure(mapped))
                return
            }
            if progress == nil, let head {
                let now = ContinuousClock.now
                let late: Head = state.withLock { state in
                    state.status = head.status
                    state.headers = head.headers
                    state.url = head.url
                    state.firstByte = state.firstByte ?? now
                    return state.makeHead(request: request, callStarted: callStarted)
                }
                end(.success(late))
                return
            }
            guard let progress else {
                end(.failure(GatewayError(.transport, "the request ended without a response",
                                          fix: "retry, or check the server", request: request)))
                return
            }
            if let expected = progress.expected, progress.received < expected {
                end(.failure(URLSessionTransport.connectionLost(request, received: progress.received, expected: expected)))
                return
            }
            end(.success(nil))
        }
    }
}
