import Foundation

extension URLSessionTransport {
    /// A value behind a lock, shared between the session delegate's queue, the watchdog and the
    /// calling task.
    ///
    /// `@unchecked Sendable` is sound because `value` is only touched inside `withLock`, which
    /// holds `lock` for the whole access and never lets a reference to the value escape.
    final class Protected<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Value

        init(_ value: Value) { self.value = value }

        func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
            lock.lock()
            defer { lock.unlock() }
            return try body(&value)
        }
    }

    /// What one exchange (one request, no redirects followed) produced.
    struct Exchange: Sendable {
        var status: Int
        var headers: HTTPHeaders
        var url: URL?
        var body: Data
        var timeToFirstByte: Duration?
        var bytesSent: Int64
    }

    /// The state of one `URLSessionTask`, fed by the session delegate and finished exactly once:
    /// by the delegate's completion, by a limit (size, idle timeout, deadline) or by cancellation.
    final class TaskState: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Exchange, any Error>?
            var outcome: Result<Exchange, any Error>?
            var finished = false
            var cancelTask: (@Sendable () -> Void)?
            var status = 0
            var headers = HTTPHeaders()
            var url: URL?
            var body = Data()
            var expectedLength: Int?
            var lastActivity: ContinuousClock.Instant
            var firstByte: ContinuousClock.Instant?
            var bytesSent: Int64 = 0
            /// The platform is waiting for the redirect decision; cancelling the task now would
            /// crash FoundationNetworking on Linux ("Received callback for HTTP redirection, but
            /// we're not waiting for it"), so a cancel is held until the response head arrives.
            var redirectPending = false
            var cancelHeld = false
        }

        let request: HTTPRequest
        let started: ContinuousClock.Instant
        let callStarted: ContinuousClock.Instant
        let idleTimeout: Duration
        private let state: Protected<State>

        init(request: HTTPRequest, idleTimeout: Duration, callStarted: ContinuousClock.Instant) {
            let now = ContinuousClock.now
            self.request = request
            self.started = now
            self.callStarted = callStarted
            self.idleTimeout = idleTimeout
            self.state = Protected(State(lastActivity: now))
        }

        /// Sets how to cancel the underlying task once a limit or the caller ends the exchange.
        func setCancel(_ cancel: @escaping @Sendable () -> Void) {
            state.withLock { $0.cancelTask = cancel }
        }

        /// Installs the continuation; returns `false` when the exchange already ended (it was
        /// cancelled before it started), in which case the continuation has been resumed.
        func install(_ continuation: CheckedContinuation<Exchange, any Error>) -> Bool {
            let outcome: Result<Exchange, any Error>? = state.withLock { state in
                if let outcome = state.outcome { return outcome }
                state.continuation = continuation
                return nil
            }
            guard let outcome else { return true }
            continuation.resume(with: outcome)
            return false
        }

        /// Ends the exchange with an error and cancels the underlying task; later events are ignored.
        func fail(_ error: any Error) {
            finish(.failure(error), cancel: true)
        }

        private func finish(_ outcome: Result<Exchange, any Error>, cancel: Bool) {
            let (continuation, cancelTask) = state.withLock { state -> (CheckedContinuation<Exchange, any Error>?, (@Sendable () -> Void)?) in
                guard !state.finished else { return (nil, nil) }
                state.finished = true
                state.outcome = outcome
                state.body = Data()
                defer { state.continuation = nil }
                guard cancel else { return (state.continuation, nil) }
                if state.redirectPending {
                    state.cancelHeld = true
                    return (state.continuation, nil)
                }
                return (state.continuation, state.cancelTask)
            }
            cancelTask?()
            continuation?.resume(with: outcome)
        }

        /// The platform asks whether to follow a redirect.
        ///
        /// - Returns: `false` when the exchange has already ended (and its task was cancelled): the
        ///   platform's completion handler must then not be called at all.
        func redirectAsked() -> Bool {
            state.withLock { state in
                guard !state.finished else { return false }
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

        /// The response head arrived.
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
            let tooLarge: Int? = state.withLock { state in
                guard !state.finished else { return nil }
                state.status = status
                state.headers = headers
                state.url = url
                state.lastActivity = now
                state.firstByte = now
                state.body = Data()
                state.expectedLength = carriesBody ? headers.declaredBodyLength : nil
                if let expected = state.expectedLength {
                    if expected > limit { return expected }
                    state.body.reserveCapacity(expected)
                }
                return nil
            }
            guard let tooLarge else { return true }
            fail(GatewayError.responseTooLarge(request, limit: limit, declared: tooLarge))
            return false
        }

        /// A piece of the body arrived; fails the exchange once the body passes the size limit.
        func received(_ data: Data) {
            let now = ContinuousClock.now
            let limit = request.maxResponseBytes
            let overLimit: Bool = state.withLock { state in
                guard !state.finished else { return false }
                state.lastActivity = now
                if state.firstByte == nil { state.firstByte = now }
                guard state.body.count + data.count <= limit else { return true }
                state.body.append(data)
                return false
            }
            if overLimit { fail(GatewayError.responseTooLarge(request, limit: limit, declared: nil)) }
        }

        /// Body bytes went out.
        func sent(total: Int64) {
            let now = ContinuousClock.now
            state.withLock { state in
                state.lastActivity = now
                state.bytesSent = max(state.bytesSent, total)
            }
        }

        /// The task completed.
        ///
        /// - Parameters:
        ///   - error: the platform's error, if any.
        ///   - head: the task's final response head, used when the delegate never saw one
        ///     (FoundationNetworking reports a 3xx without `Location` only here, and drops its body).
        func completed(error: (any Error)?, head: (status: Int, headers: HTTPHeaders, url: URL?)?) {
            state.withLock { $0.redirectPending = false; $0.cancelHeld = false }
            if let error {
                var mapped = URLSessionTransport.map(error, request: request, idleTimeout: idleTimeout)
                let progress = state.withLock { state in
                    state.status == 0 ? nil : (received: state.body.count, expected: state.expectedLength)
                }
                if var failure = mapped as? GatewayError, URLSessionTransport.isConnectionLoss(failure), let progress {
                    // The head arrived, so the body was cut off, whatever code the platform chose.
                    let expected = progress.expected.map { " of the \($0) bytes its Content-Length announced" } ?? ""
                    let said = URLSessionTransport.platformText(of: error).map { " (the platform said: \"\($0)\")" } ?? ""
                    failure.message = "connection lost: the body ended after \(progress.received) bytes\(expected)\(said)"
                    failure.fix = "the server closed or reset the connection mid-body; retry, or check the server"
                    mapped = failure
                }
                finish(.failure(mapped), cancel: false)
                return
            }
            let outcome: Result<Exchange, any Error>? = state.withLock { state in
                guard !state.finished else { return nil }
                var bodyDelivered = true
                if state.status == 0, let head {
                    state.status = head.status
                    state.headers = head.headers
                    state.url = head.url
                    bodyDelivered = false
                }
                guard state.status != 0 else {
                    return .failure(GatewayError(.transport, "the request ended without a response",
                                                 fix: "retry, or check the server", request: request))
                }
                if bodyDelivered, let expected = state.expectedLength, state.body.count < expected {
                    return .failure(URLSessionTransport.connectionLost(request, received: state.body.count, expected: expected))
                }
                // Without upload progress callbacks, a response means the server read the whole body.
                let bytesSent = state.bytesSent > 0 ? state.bytesSent : (request.body?.length ?? 0)
                return .success(Exchange(
                    status: state.status, headers: state.headers, url: state.url, body: state.body,
                    timeToFirstByte: state.firstByte.map { $0 - callStarted }, bytesSent: bytesSent
                ))
            }
            if let outcome { finish(outcome, cancel: false) }
        }

        /// When a limit passes if nothing happens meanwhile: the idle timeout after the last
        /// activity, or the deadline if sooner.
        private func due(after lastActivity: ContinuousClock.Instant) -> ContinuousClock.Instant {
            let idle = lastActivity + idleTimeout
            guard let deadline = request.deadline else { return idle }
            return min(idle, deadline)
        }

        /// When the watchdog should look at this exchange first.
        var firstDue: ContinuousClock.Instant { due(after: started) }

        /// Fails the exchange when its deadline or idle timeout has passed at `now`.
        ///
        /// - Returns: when to look again, or `nil` when the exchange has ended (now or before).
        func check(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
            let (finished, lastActivity) = state.withLock { ($0.finished, $0.lastActivity) }
            if finished { return nil }
            if let deadline = request.deadline, now >= deadline {
                fail(GatewayError.deadlinePassed(request, after: now - callStarted))
                return nil
            }
            if now - lastActivity >= idleTimeout {
                fail(GatewayError.idleTimeout(request, after: idleTimeout))
                return nil
            }
            return due(after: lastActivity)
        }
    }
}
