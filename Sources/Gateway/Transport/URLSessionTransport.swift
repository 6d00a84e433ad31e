import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default `Transport`: `URLSession` with no second copy of anything.
///
/// - **Nothing kept.** An ephemeral configuration with no `URLCache`, no cookie storage and no
///   credential storage; `Set-Cookie` is never stored and no `Cookie` is ever added.
/// - **Headers.** Sends `User-Agent` and `Accept-Encoding` of its own unless the request has
///   them; gzip and deflate bodies arrive decompressed. `Content-Length` and
///   `Transfer-Encoding` are written from the body (the request's own are ignored), and a body
///   without `Content-Type` goes as `application/octet-stream`.
/// - **Redirects.** Followed by the transport itself, so every platform behaves alike: within
///   the same origin as they are; to another scheme, host or port without `Authorization`,
///   `Cookie` and `Proxy-Authorization` (and those never come back later in the chain);
///   https → http and non-HTTP schemes are refused (`.redirectRefused`); more than
///   `maxRedirects` (at most 20) follow-ups end with `.tooManyRedirects`. 303, and 301/302 after
///   a POST, continue as GET without the body; 307 and 308 re-send the body.
/// - **Time.** `request.timeout` (or the configured default) is an idle timeout: the longest
///   wait for any network activity. `request.deadline` bounds the whole call, redirects
///   included. Either ends the call with `.timeout` saying which limit passed.
/// - **Streaming.** `send` returns when the response head arrives; the body's chunks go to its
///   reader as the platform delivers them. Chunks not yet read wait in memory (FoundationNetworking
///   cannot pause a transfer), never more than `request.maxResponseBytes` in all, and never much
///   more than `Configuration.bodyBufferLimit` for a body that can be continued with a range: a
///   `GET` answered with a declared length, no content coding, a validator (strong `ETag` or
///   `Last-Modified`) and `Accept-Ranges: bytes`. Once that many bytes wait unread, the exchange
///   is ended, and when the reader has taken them the rest is asked for with `Range` and
///   `If-Range`; the reader sees one unbroken body. If the server then does not send exactly the
///   rest (it ignores the range, or the representation changed), the body ends with `.transport`
///   ("the body was cut off"), retried as a lost connection. Other bodies are held whole while
///   their reader is behind.
/// - **Size.** A body larger than `request.maxResponseBytes`, counted after decompression, ends
///   the body with `.responseTooLarge` as soon as the limit is passed, whatever the reader's own
///   limit; it is never held whole, and memory stays bounded by the limit whatever a compressed
///   body inflates to (on Linux the platform may go on inflating the read in hand for a moment
///   after the exchange has ended).
/// - **Malformed replies.** A reply that is not valid HTTP (a bad status line, an HTTP/0.9 reply,
///   a NUL byte or a missing colon in a header, headers past the platform's limits, a body that
///   does not decompress, a `Content-Length` that is not a number) ends with `.transport`
///   naming what the server did wrong, with the platform's own words; it is not retried.
/// - **Truncation.** A body shorter than its `Content-Length` ends with `.transport`
///   ("connection lost"), never with a short success; the chunks that arrived before are read
///   first (a download resumes after them).
/// - **Cancellation.** Cancelling the task that sends, or the one reading the body, cancels the
///   request and throws `CancellationError`; so does dropping the body before its end.
///
/// The metrics come from a monotonic clock of our own (URLSession's task metrics never arrive
/// on Linux).
public final class URLSessionTransport: Transport {
    /// How a `URLSessionTransport` behaves.
    public struct Configuration: Sendable {
        /// The idle timeout used when a request sets none.
        public var timeout: Duration
        /// How many redirects one call may follow (0...20).
        public var maxRedirects: Int
        /// The `User-Agent` sent when the request has none.
        public var userAgent: String
        /// The `Accept-Encoding` sent when the request has none.
        public var acceptEncoding: String
        /// The most connections kept open to one host.
        public var maxConnectionsPerHost: Int
        /// The most bytes of a body held unread before the exchange is ended and the rest asked
        /// for with a range, for a body that allows it (see the type's "Streaming"); at least
        /// 64 KiB. `Int.max` holds every body whole while its reader is behind.
        public var bodyBufferLimit: Int
        /// Last changes to the session configuration before the session is made (for example
        /// `waitsForConnectivity` or `allowsCellularAccess` on Apple platforms). Caching, cookie
        /// and credential storage are switched off again afterwards.
        public var configureSession: (@Sendable (URLSessionConfiguration) -> Void)?

        /// Creates a configuration.
        public init(
            timeout: Duration = .seconds(60),
            maxRedirects: Int = 20,
            userAgent: String = "Gateway/0.1",
            acceptEncoding: String = "gzip, deflate",
            maxConnectionsPerHost: Int = 6,
            bodyBufferLimit: Int = 8 * 1024 * 1024,
            configureSession: (@Sendable (URLSessionConfiguration) -> Void)? = nil
        ) {
            self.timeout = timeout
            self.maxRedirects = maxRedirects
            self.userAgent = userAgent
            self.acceptEncoding = acceptEncoding
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.bodyBufferLimit = bodyBufferLimit
            self.configureSession = configureSession
        }
    }

    /// The configuration in use (`maxRedirects` clamped to 0...20, `timeout` at least 1 ms,
    /// `bodyBufferLimit` at least 64 KiB).
    public let configuration: Configuration
    private let session: URLSession
    private let delegate: SessionDelegate
    private let watchdog = Watchdog()
    /// What the bodies held back, for tests and benchmarks.
    package let bufferStatistics = BufferStatistics()
    /// Where tasks are cancelled: `URLSessionTask.cancel()` waits for the platform's thread,
    /// which may be busy inflating a body or waiting for the delegate queue, so no caller's
    /// thread (nor the delegate queue) waits for it.
    private let cancellations = DispatchQueue(label: "Gateway.URLSessionTransport.cancel")

    /// Creates a transport with its own session.
    ///
    /// - Parameter configuration: timeouts, redirect limit, default headers, session hook.
    public init(configuration: Configuration = Configuration()) {
        var configuration = configuration
        configuration.maxRedirects = min(max(configuration.maxRedirects, 0), 20)
        configuration.timeout = max(configuration.timeout, .milliseconds(1))
        configuration.bodyBufferLimit = max(configuration.bodyBufferLimit, 64 * 1024)
        self.configuration = configuration

        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.httpMaximumConnectionsPerHost = max(1, configuration.maxConnectionsPerHost)
        sessionConfiguration.timeoutIntervalForRequest = URLSessionTransport.platformTimeout(configuration.timeout)
        sessionConfiguration.timeoutIntervalForResource = 7 * 24 * 3600
        configuration.configureSession?(sessionConfiguration)
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.httpCookieAcceptPolicy = .never
        sessionConfiguration.urlCredentialStorage = nil

        #if canImport(Darwin)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "Gateway.URLSessionTransport"
        #else
        let queue = DelegateQueue()
        #endif
        delegate = SessionDelegate(statistics: bufferStatistics)
        session = URLSession(configuration: sessionConfiguration, delegate: delegate, delegateQueue: queue)
    }

    /// Creates a transport with a default timeout and redirect limit.
    ///
    /// - Parameters:
    ///   - timeout: the idle timeout used when a request sets none.
    ///   - maxRedirects: how many redirects one call may follow (0...20).
    public convenience init(timeout: Duration, maxRedirects: Int = 20) {
        self.init(configuration: Configuration(timeout: timeout, maxRedirects: maxRedirects))
    }

    deinit {
        watchdog.close()
        // Not on the releasing thread: the platform's thread may be busy inflating a body.
        let session = session
        cancellations.async { session.invalidateAndCancel() }
    }

    /// Sends the request, following redirects as the type's documentation says, and returns
    /// once the final response's head has arrived.
    ///
    /// - Returns: the final response; its body's chunks arrive as the platform delivers them,
    ///   and its metrics are known once the body has been read to its end. Keep the transport
    ///   while the body is read: releasing it cancels its exchanges, bodies included.
    /// - Throws: `GatewayError` (`.invalidRequest`, `.transport`, `.timeout`,
    ///   `.responseTooLarge`, `.redirectRefused`, `.tooManyRedirects`, `.invalidResponse`) or
    ///   `CancellationError`; the body throws the same kinds for failures after the head.
    @concurrent public func send(_ request: HTTPRequest) async throws -> StreamedResponse {
        let started = ContinuousClock.now
        try Task.checkCancellation()
        try request.checkSendable()
        var current = request
        var chain = RedirectChain(from: request, maxRedirects: configuration.maxRedirects)
        var bytesSent: Int64 = 0
        while true {
            if let deadline = request.deadline, ContinuousClock.now >= deadline {
                throw GatewayError.deadlinePassed(current, after: ContinuousClock.now - started)
            }
            let (head, state) = try await exchange(current, callStarted: started)
            let body = BodyOwner(state)
            bytesSent += head.bytesSent
            if let next = try chain.next(status: head.status, headers: head.headers, responseURL: head.url, after: current) {
                // A redirect's body (empty on Linux) is read to its end, so the connection can be reused.
                if state.takeReader() {
                    let reader = BodyReader(state)
                    while try await reader.next() != nil {}
                }
                current = next
                continue
            }
            let redirects = chain.count, total = bytesSent
            let metrics: @Sendable (Int64) -> TransportMetrics = { received in
                TransportMetrics(
                    duration: ContinuousClock.now - started, timeToFirstByte: head.timeToFirstByte,
                    bytesSent: total, bytesReceived: received, redirects: redirects)
            }
            return StreamedResponse(
                status: head.status, headers: head.headers, url: head.url ?? current.url,
                body: ResponseBody(pull: { [body] in
                    // Each iteration holds a reader of its own, so dropping it stops the transfer.
                    guard body.state.takeReader() else { return { nil } }
                    let reader = BodyReader(body.state)
                    return { try await reader.next() }
                }, metrics: metrics))
        }
    }

    /// Starts one request, without following redirects, and waits for its response head.
    private func exchange(_ request: HTTPRequest, callStarted: ContinuousClock.Instant)
        async throws -> (Head, TaskState)
    {
        let urlRequest = makeURLRequest(request)
        let task: URLSessionTask
        switch request.body {
        case .data(let data)? where !data.isEmpty:
            task = session.uploadTask(with: urlRequest, from: data)
        case .file(let url, _, _)?:
            task = session.uploadTask(with: urlRequest, fromFile: url)
        case .data?, nil:
            task = session.dataTask(with: urlRequest)
        }
        let idleTimeout = max(request.timeout ?? configuration.timeout, .milliseconds(1))
        let state = TaskState(request: request, idleTimeout: idleTimeout, callStarted: callStarted,
                              bufferLimit: configuration.bodyBufferLimit, statistics: bufferStatistics)
        attach(task, to: state)
        state.setStartRest { [weak self, weak state] rest in
            guard let self, let state else { return }
            self.continueExchange(state, with: rest)
        }

        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if state.install(continuation) { task.resume() }
            }
        } onCancel: {
            state.fail(CancellationError())
        }
        return (head, state)
    }

    /// Routes `task`'s callbacks to `state` and lets `state` cancel it.
    ///
    /// - Returns: `false` when the exchange has already ended (the task is not routed).
    @discardableResult
    private func attach(_ task: URLSessionTask, to state: TaskState) -> Bool {
        let cancellations = cancellations, identifier = task.taskIdentifier
        delegate.register(state, for: identifier)
        watchdog.register(state, for: identifier)
        let unregister: @Sendable () -> Void = { [watchdog, delegate] in
            watchdog.unregister(identifier)
            delegate.unregister(identifier)
        }
        let attached = state.setCancel({ cancellations.async { task.cancel() } }, onEnd: unregister)
        if !attached { unregister() }
        return attached
    }

    /// Asks for the rest of a body ended at the buffer limit (`rest` carries the range), as a
    /// new task feeding the same exchange.
    private func continueExchange(_ state: TaskState, with rest: HTTPRequest) {
        let task = session.dataTask(with: makeURLRequest(rest))
        guard attach(task, to: state) else {
            cancellations.async { task.cancel() }
            return
        }
        task.resume()
    }
}
