import Foundation

/// What opens WebSocket connections: the seam under `GraphQLWebSocketClient`, as `Transport`
/// is under the pipeline.
///
/// A transport connects to a `ws` or `wss` URL with the header fields and subprotocols it is
/// given and hands back an open connection; it does nothing of GraphQL's. Text messages arrive
/// whole (a fragmented message is put together first), in order; control frames (ping, pong,
/// close) are the transport's to answer. Implementations that come with Gateway:
/// `URLSessionWebSocketTransport` (where the platform's URLSession has WebSocket support),
/// `SocketWebSocketTransport` (POSIX sockets, `ws` only; the default on Linux) and
/// `NIOWebSocketTransport` in the `Transports/AsyncHTTPClient` package (SwiftNIO;
/// Linux and Apple platforms, `ws` and `wss`).
///
/// Implementing one, over a connection type of your own:
/// ```swift
/// struct LoopbackSockets: WebSocketTransport {
///     let open: @Sendable (URL) async throws -> any WebSocketConnection
///     func connect(to url: URL, headers: HTTPHeaders, subprotocols: [String]) async throws
///         -> any WebSocketConnection {
///         try await open(url)
///     }
/// }
/// ```
public protocol WebSocketTransport: Sendable {
    /// Opens a connection: the opening handshake with `headers` and `Sec-WebSocket-Protocol`
    /// listing `subprotocols`, in order of preference.
    ///
    /// - Parameters:
    ///   - url: a `ws` or `wss` URL (`http` and `https` are taken as `ws` and `wss`).
    ///   - headers: header fields for the handshake request.
    ///   - subprotocols: the subprotocols offered; empty offers none.
    /// - Returns: the open connection, once the server has accepted the handshake.
    /// - Throws: `GatewayError` of kind `.invalidRequest` (a URL that is not ws or wss, a bad
    ///   header field), `.status` (the server answered the handshake with another status than
    ///   101; the error carries the response), `.transport` or `.timeout` (the network),
    ///   `.unsupported` (the platform cannot open WebSockets), or `CancellationError`.
    func connect(to url: URL, headers: HTTPHeaders, subprotocols: [String]) async throws
        -> any WebSocketConnection
}

/// One open WebSocket connection: send text, receive text in order, close.
///
/// `events` delivers every text message received, in order, then one `.closed` with the code
/// and reason of the close (the server's, the one this side sent, or `.abnormalClosure` when
/// the connection dropped without a close frame), then ends. It is meant for one consumer.
///
/// Implementing one, in memory (a pair of streams):
/// ```swift
/// final class EchoConnection: WebSocketConnection {
///     let events: AsyncStream<WebSocketEvent>
///     private let inbox: AsyncStream<WebSocketEvent>.Continuation
///     let subprotocol: String? = nil
///
///     init() { (events, inbox) = AsyncStream.makeStream(of: WebSocketEvent.self) }
///
///     func send(_ text: String) async throws { inbox.yield(.text(text)) }
///     func close(code: WebSocketCloseCode, reason: String) async {
///         inbox.yield(.closed(WebSocketClose(code: code, reason: reason)))
///         inbox.finish()
///     }
/// }
/// ```
public protocol WebSocketConnection: Sendable {
    /// The subprotocol the server chose in its handshake answer; `nil` when it chose none.
    var subprotocol: String? { get }

    /// The text messages received, in order, then one `.closed`; the stream ends after it.
    var events: AsyncStream<WebSocketEvent> { get }

    /// Sends one text message.
    ///
    /// - Parameter text: the message; sent as one text frame (or several, as the transport
    ///   chooses).
    /// - Throws: `GatewayError` of kind `.transport` when the connection is closed or lost,
    ///   `.responseTooLarge` when the message is larger than the transport allows.
    func send(_ text: String) async throws

    /// Closes the connection with `code`: sends a close frame, and ends `events` with
    /// `.closed` once the server answers (or at once when it does not answer in a short while,
    /// or the connection is lost). Closing a closed connection does nothing.
    ///
    /// - Parameters:
    ///   - code: the close code sent, usually `.normalClosure`.
    ///   - reason: a short reason, at most 123 bytes of UTF-8 (longer ones are cut).
    func close(code: WebSocketCloseCode, reason: String) async
}
