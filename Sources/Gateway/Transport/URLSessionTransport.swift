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
///   reader as the platform delivers them. Chunks not yet read wait in memory (the platform
///   cannot be paused), never more than `request.maxResponseBytes` in all.
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
            configureSession: (@Sendable (URLSessionConfiguration) -> Void)? = nil
        ) {
            self.timeout = timeout
            self.maxRedirects = maxRedirects
            self.userAgent = userAgent
            self.acceptEncoding = acceptEncoding
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.configureSession = configureSession
        }
    }

    /// The configuration in use (`maxRedirects` clamped to 0...20, `timeout` at least 1 ms).
    public let configuration: Configuration
    private let session: URLSession
    private let delegate: SessionDelegate
    private let watchdog = Watchdog()
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
        delegate = SessionDelegate()
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
    public func send(_ request: HTTPRequest) async throws -> StreamedResponse {
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
        let state = TaskState(request: request, idleTimeout: idleTimeout, callStarted: callStarted)
        let cancellations = cancellations, identifier = task.taskIdentifier
        state.setCancel({ cancellations.async { task.cancel() } }, onEnd: { [watchdog, delegate] in
            watchdog.unregister(identifier)
            delegate.unregister(identifier)
        })
        delegate.register(state, for: identifier)
        watchdog.register(state, for: identifier)

        let head = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if state.install(continuation) { task.resume() }
            }
        } onCancel: {
            state.fail(CancellationError())
        }
        return (head, state)
    }

    private func makeURLRequest(_ request: HTTPRequest) -> URLRequest {
        let timeout = request.timeout ?? configuration.timeout
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: URLSessionTransport.platformTimeout(timeout)
        )
        urlRequest.httpMethod = request.method.rawValue
        urlRequest.httpShouldHandleCookies = false
        for field in request.headers where !HTTPHeaders.isFraming(field.name) {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        if let body = request.body, body.length > 0, !request.headers.contains("Content-Type") {
            // Otherwise the platform labels any POST body as a form.
            urlRequest.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        }
        if !request.headers.contains("User-Agent") {
            urlRequest.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        }
        if !request.headers.contains("Accept-Encoding") {
            urlRequest.setValue(configuration.acceptEncoding, forHTTPHeaderField: "Accept-Encoding")
        }
        return urlRequest
    }

    /// The timeout given to the platform, an idle timeout on every platform. FoundationNetworking
    /// truncates it to whole seconds (0.5 s would time out at once), so there it is rounded up
    /// and given a second more: it only backs up the transport's own idle timeout and deadline.
    private static func platformTimeout(_ timeout: Duration) -> TimeInterval {
        let (seconds, attoseconds) = timeout.components
        let exact = Double(seconds) + Double(attoseconds) / 1e18
        #if canImport(Darwin)
        return max(0.001, exact)
        #else
        return min(exact, 30 * 24 * 3600).rounded(.up) + 1
        #endif
    }
}
