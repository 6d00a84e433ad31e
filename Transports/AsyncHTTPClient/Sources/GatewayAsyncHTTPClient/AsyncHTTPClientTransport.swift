import AsyncHTTPClient
import Foundation
import Gateway
import NIOConcurrencyHelpers
import NIOCore

/// A `Transport` on swift-server's async-http-client (SwiftNIO): the fast transport for servers.
///
/// It keeps the contract `URLSessionTransport` documents, so a `Provider` behaves the same on
/// either:
///
/// - **Nothing kept.** No cache and no cookie storage; `Set-Cookie` is never stored and no
///   `Cookie` is ever added.
/// - **Headers.** Sends `User-Agent` and `Accept-Encoding` of its own unless the request has
///   them; gzip and deflate bodies arrive decompressed. `Content-Length` and
///   `Transfer-Encoding` are written from the body (the request's own are ignored), and a body
///   without `Content-Type` goes as `application/octet-stream`.
/// - **Redirects.** Followed by the transport itself (the client's own redirect following is
///   switched off): within the same origin as they are; to another scheme, host or port without
///   `Authorization`, `Cookie` and `Proxy-Authorization` (and those never come back later in the
///   chain); https → http and non-HTTP schemes are refused (`.redirectRefused`); more than
///   `maxRedirects` (at most 20) follow-ups end with `.tooManyRedirects`. 303, and 301/302 after
///   a POST, continue as GET without the body; 307 and 308 re-send the body.
/// - **Time.** `request.timeout` (or the configured default) is an idle timeout: the longest
///   wait for any network activity. `request.deadline` bounds the whole call, redirects
///   included. Either ends the call with `.timeout` saying which limit passed.
/// - **Size.** The body is read from the network only as its chunks are asked for (at most
///   512 KiB ahead), so nothing piles up ahead of the reader; past `request.maxResponseBytes` (counted after
///   decompression) the body ends with `.responseTooLarge` and the transfer stops.
/// - **Truncation.** A body cut off before its end ends with `.transport` ("connection lost"),
///   never with a short success.
/// - **Cancellation.** Cancelling the task that sends or reads the body cancels the request and
///   throws `CancellationError`; so does dropping the body before its end.
///
/// Threads: the requests to one origin (scheme, host and port) run on one of the client's event
/// loops, chosen by the origin, and the connections opened for them are opened there: a
/// response's chunks then reach the reader straight from the thread that reads the connection.
///
/// Lifecycle: a transport made with `init(configuration:)` owns its `HTTPClient` (on NIO's
/// shared event loop group, so no threads of its own) and must be shut down with `shutdown()`
/// when no longer needed. One made with `init(client:configuration:)` borrows the client and
/// leaves shutting it down to its owner.
///
/// ```swift
/// let transport = AsyncHTTPClientTransport()
/// let provider = Provider(baseURL: api, transport: transport)
/// // … use the provider …
/// try await transport.shutdown()
/// ```
public final class AsyncHTTPClientTransport: Transport {
    /// How an `AsyncHTTPClientTransport` behaves.
    public struct Configuration: Sendable {
        /// The idle timeout used when a request sets none.
        public var timeout: Duration
        /// The longest wait for a new connection to be established.
        public var connectTimeout: Duration
        /// How many redirects one call may follow (0...20).
        public var maxRedirects: Int
        /// The `User-Agent` sent when the request has none.
        public var userAgent: String
        /// The `Accept-Encoding` sent when the request has none.
        public var acceptEncoding: String
        /// The most HTTP/1.1 connections kept open to one host (the client's soft limit). Used
        /// only when the transport makes its own client.
        public var maxConnectionsPerHost: Int
        /// How long an unused connection stays in the pool. Used only when the transport makes
        /// its own client.
        public var connectionIdleTimeout: Duration

        /// Creates a configuration.
        public init(
            timeout: Duration = .seconds(60),
            connectTimeout: Duration = .seconds(10),
            maxRedirects: Int = 20,
            userAgent: String = "Gateway/0.1",
            acceptEncoding: String = "gzip, deflate",
            maxConnectionsPerHost: Int = 8,
            connectionIdleTimeout: Duration = .seconds(60)
        ) {
            self.timeout = timeout
            self.connectTimeout = connectTimeout
            self.maxRedirects = maxRedirects
            self.userAgent = userAgent
            self.acceptEncoding = acceptEncoding
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.connectionIdleTimeout = connectionIdleTimeout
        }
    }

    /// The configuration in use (`maxRedirects` clamped to 0...20, `timeout` at least 1 ms).
    public let configuration: Configuration
    /// The client requests go through.
    public let client: HTTPClient
    private let ownsClient: Bool
    /// Whether the client's read timeout is `configuration.timeout` (true for a client the
    /// transport made), so that requests with that idle timeout need no timer of their own.
    let clientEnforcesTimeout: Bool
    /// The client's event loops, one of which each origin's requests run on.
    let eventLoops: [any EventLoop]
    private let shutDown = NIOLockedValueBox(false)

    /// Creates a transport with a client of its own; call `shutdown()` when done with it.
    ///
    /// - Parameter configuration: timeouts, redirect limit, default headers, connection pool.
    public convenience init(configuration: Configuration = Configuration()) {
        var clientConfiguration = Self.clientConfiguration(for: configuration)
        clientConfiguration.timeout.read = Self.timeAmount(max(configuration.timeout, .milliseconds(1)))
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
        self.init(client: client, owned: true, configuration: configuration)
    }

    /// Creates a transport that sends through a client someone else owns and shuts down.
    ///
    /// The client must not follow redirects itself (`redirectConfiguration = .disallow`), or
    /// the origin rules above are the client's, not the transport's; `clientConfiguration(for:)`
    /// makes a suitable configuration.
    ///
    /// - Parameters:
    ///   - client: the client to borrow.
    ///   - configuration: timeouts, redirect limit and default headers (the pool settings are the client's).
    public convenience init(client: HTTPClient, configuration: Configuration = Configuration()) {
        self.init(client: client, owned: false, configuration: configuration)
    }

    private init(client: HTTPClient, owned: Bool, configuration: Configuration) {
        var configuration = configuration
        configuration.maxRedirects = min(max(configuration.maxRedirects, 0), 20)
        configuration.timeout = max(configuration.timeout, .milliseconds(1))
        self.configuration = configuration
        self.client = client
        self.ownsClient = owned
        self.clientEnforcesTimeout = owned
        self.eventLoops = Array(client.eventLoopGroup.makeIterator())
    }

    deinit {
        // A client dropped while running traps in debug builds: start its shutdown instead.
        let needsShutdown = ownsClient && !shutDown.withLockedValue { $0 }
        if needsShutdown { client.shutdown { _ in } }
    }

    /// The client configuration this transport expects: no redirects followed by the client,
    /// decompression on (the size limit is the transport's), the connect timeout and pool size
    /// of `configuration`. (A transport that makes its own client also sets the client's read
    /// timeout to `configuration.timeout`; with a borrowed client it keeps time itself.)
    ///
    /// - Parameter configuration: the transport configuration to derive it from.
    /// - Returns: a configuration for `HTTPClient(eventLoopGroup:configuration:)`.
    public static func clientConfiguration(for configuration: Configuration) -> HTTPClient.Configuration {
        var client = HTTPClient.Configuration()
        client.redirectConfiguration = .disallow
        client.decompression = .enabled(limit: .none)
        client.timeout = HTTPClient.Configuration.Timeout(connect: timeAmount(configuration.connectTimeout))
        client.connectionPool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: timeAmount(configuration.connectionIdleTimeout),
            concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, configuration.maxConnectionsPerHost)
        )
        return client
    }

    /// Shuts down the client if this transport owns it; a borrowed client is left running.
    /// Calling it again does nothing.
    ///
    /// - Throws: the client's shutdown error (requests still running are cancelled).
    public func shutdown() async throws {
        guard ownsClient else { return }
        let first = shutDown.withLockedValue { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        try await client.shutdown()
    }

    /// Sends the request, following redirects as the type's documentation says, and returns
    /// once the final response's head has arrived.
    ///
    /// - Returns: the final response; its body is read from the network as its chunks are asked
    ///   for, and its metrics are known once it has been read to its end.
    /// - Throws: `GatewayError` (`.invalidRequest`, `.transport`, `.timeout`,
    ///   `.responseTooLarge`, `.redirectRefused`, `.tooManyRedirects`, `.invalidResponse`) or
    ///   `CancellationError`; the body throws the same kinds for failures after the head.
    public func send(_ request: HTTPRequest) async throws -> StreamedResponse {
        let started = ContinuousClock.now
        try Task.checkCancellation()
        try request.checkSendable()
        if ownsClient, shutDown.withLockedValue({ $0 }) {
            throw GatewayError(
                .invalidRequest, "the transport has been shut down",
                fix: "do not send through a transport after calling `shutdown()`; make a new one",
                request: request)
        }
        var current = request
        var chain = RedirectChain(from: request, maxRedirects: configuration.maxRedirects)
        var bytesSent: Int64 = 0
        while true {
            if let deadline = request.deadline, ContinuousClock.now >= deadline {
                throw GatewayError.deadlinePassed(current, after: ContinuousClock.now - started)
            }
            let (head, body) = try await exchange(current, callStarted: started)
            if let next = try chain.next(status: head.status, headers: head.headers, after: current) {
                // A redirect's body is read to its end, so the connection can be reused.
                for try await _ in body {}
                bytesSent += body.bytesSent
                current = next
                continue
            }
            let redirects = chain.count, earlier = bytesSent
            let metrics: @Sendable (Int64) -> TransportMetrics = { received in
                TransportMetrics(
                    duration: ContinuousClock.now - started, timeToFirstByte: head.timeToFirstByte,
                    bytesSent: earlier + body.bytesSent, bytesReceived: received, redirects: redirects)
            }
            return StreamedResponse(
                status: head.status, headers: head.headers, url: current.url,
                body: ResponseBody(body, metrics: metrics, delivery: body.deliver))
        }
    }

    /// A `Duration` as NIO's `TimeAmount`, saturating rather than overflowing.
    static func timeAmount(_ duration: Duration) -> TimeAmount {
        let (seconds, attoseconds) = duration.components
        guard seconds < Int64.max / 1_000_000_000 - 1 else { return .nanoseconds(Int64.max) }
        return .nanoseconds(max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }
}
