import Foundation
import Gateway
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket

/// A `WebSocketTransport` on SwiftNIO: `ws` and `wss` on Linux and Apple platforms, where
/// `URLSessionWebSocketTransport` may not be.
///
/// - **Messages.** Text messages arrive whole: fragments are put together, up to
///   `Configuration.maxMessageBytes` (past it the connection is closed with `1009`). Binary
///   messages are refused (`1003`). Sent messages go as one masked text frame.
/// - **Control frames.** A ping is answered with a pong carrying its data; a close is answered
///   with the same code, and delivered as `.closed`. `close(code:reason:)` sends a close frame
///   and waits `Configuration.closeTimeout` at most for the server's before the TCP connection
///   is closed. A connection lost without a close delivers `.closed` with `1006`.
/// - **Time.** Connecting and the handshake are bounded (`connectTimeout`, `handshakeTimeout`).
/// - **TLS.** `wss` uses `Configuration.tls` (the system's trust roots by default), with the
///   host name sent for SNI unless the host is an IP address.
///
/// It runs on NIO's shared event loop group and keeps no threads of its own; there is nothing
/// to shut down.
///
/// ```swift
/// let client = GraphQLWebSocketClient(url: URL(string: "wss://api.example.com/graphql")!,
///                                     transport: NIOWebSocketTransport(), provider: provider)
/// ```
public final class NIOWebSocketTransport: WebSocketTransport {
    /// How a `NIOWebSocketTransport` behaves.
    public struct Configuration: Sendable {
        /// The largest message received, in bytes (fragments together): 16 MiB by default.
        public var maxMessageBytes: Int
        /// The longest wait for the TCP connection: 10 s by default.
        public var connectTimeout: Duration
        /// The longest wait for the handshake's answer, TLS included: 30 s by default.
        public var handshakeTimeout: Duration
        /// How long `close` waits for the server's close frame: 5 s by default.
        public var closeTimeout: Duration
        /// The TLS configuration for `wss`.
        public var tls: TLSConfiguration

        /// Creates a configuration.
        ///
        /// - Parameters:
        ///   - maxMessageBytes: the largest message received (at least 1 KiB).
        ///   - connectTimeout: the longest wait for the TCP connection.
        ///   - handshakeTimeout: the longest wait for the handshake.
        ///   - closeTimeout: how long a close waits for the server's.
        ///   - tls: the TLS configuration for `wss`.
        public init(maxMessageBytes: Int = 16 * 1024 * 1024, connectTimeout: Duration = .seconds(10),
                    handshakeTimeout: Duration = .seconds(30), closeTimeout: Duration = .seconds(5),
                    tls: TLSConfiguration = .makeClientConfiguration()) {
            self.maxMessageBytes = min(max(1024, maxMessageBytes), Int(UInt32.max))
            self.connectTimeout = connectTimeout
            self.handshakeTimeout = handshakeTimeout
            self.closeTimeout = closeTimeout
            self.tls = tls
        }
    }

    /// The configuration in use.
    public let configuration: Configuration
    private let group: any EventLoopGroup
    private let tlsContext = NIOLockedValueBox<NIOSSLContext?>(nil)

    /// Creates a transport on NIO's shared event loop group.
    ///
    /// - Parameter configuration: limits, timeouts and TLS.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        group = MultiThreadedEventLoopGroup.singleton
    }

    /// Opens a connection.
    ///
    /// - Throws: `.invalidRequest` (not a ws or wss URL), `.status` (the handshake was answered
    ///   with another status than 101), `.transport` (connecting, TLS, or a handshake answer
    ///   that is not a valid upgrade), `.timeout`, or `CancellationError`.
    public func connect(to url: URL, headers: Gateway.HTTPHeaders, subprotocols: [String]) async throws
        -> any WebSocketConnection {
        let target = try WebSocketTarget(url)
        let tls = try target.secure ? sslContext() : nil
        let (events, output) = AsyncStream.makeStream(of: WebSocketEvent.self)
        let opened = group.next().makePromise(of: WebSocketHandshake.Outcome.self)
        let head = WebSocketHandshake.requestHead(target, headers: headers, subprotocols: subprotocols)
        let limits = (maxMessageBytes: configuration.maxMessageBytes, closeTimeout: configuration.closeTimeout)
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(AsyncHTTPClientTransport.timeAmount(configuration.connectTimeout))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try WebSocketHandshake.configure(channel, target: target, tls: tls, head: head, opened: opened,
                                                     output: output, limits: limits)
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: target.host, port: target.port).get()
        } catch {
            opened.fail(error)
            output.finish()
            throw Self.connectFailure(error, target)
        }
        let timeout = channel.eventLoop.scheduleTask(in: AsyncHTTPClientTransport.timeAmount(configuration.handshakeTimeout)) {
            opened.fail(WebSocketHandshake.TimedOut())
            channel.close(promise: nil)
        }
        defer { timeout.cancel() }
        do {
            let outcome = try await withTaskCancellationHandler {
                try await opened.futureResult.get()
            } onCancel: {
                opened.fail(CancellationError())
                channel.close(promise: nil)
            }
            return NIOWebSocketConnection(channel: channel, handler: outcome.handler, subprotocol: outcome.subprotocol,
                                          events: events)
        } catch {
            channel.close(promise: nil)
            output.finish()
            throw Self.handshakeFailure(error, target)
        }
    }

    private func sslContext() throws -> NIOSSLContext {
        try tlsContext.withLockedValue { cached in
            if let cached { return cached }
            do {
                let context = try NIOSSLContext(configuration: configuration.tls)
                cached = context
                return context
            } catch {
                throw GatewayError(.transport, "the TLS configuration for wss could not be loaded", underlying: error)
            }
        }
    }
}
