import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `WebSocketTransport` on `URLSessionWebSocketTask`: Apple platforms, and Linux where
/// Foundation's libcurl was built with WebSocket support.
///
/// Debian's and Ubuntu's libcurl (7.88 and others) are built without it: there `connect` fails
/// with `GatewayError` of kind `.unsupported` whose fix names the alternatives,
/// `SocketWebSocketTransport` for `ws://` and `NIOWebSocketTransport` from the
/// `Transports/AsyncHTTPClient` package.
///
/// Messages larger than `maxMessageBytes` end the connection (`1009`); binary messages are
/// refused (`1003`), as the GraphQL over WebSocket protocol sends text only.
///
/// ```swift
/// let client = GraphQLWebSocketClient(url: URL(string: "wss://api.example.com/graphql")!,
///                                     transport: URLSessionWebSocketTransport(), provider: provider)
/// ```
public final class URLSessionWebSocketTransport: WebSocketTransport {
    /// The largest message received: 16 MiB by default.
    public let maxMessageBytes: Int
    /// How long the handshake may take: 30 s by default.
    public let handshakeTimeout: Duration
    private let session: URLSession
    private let delegate: WebSocketSessionDelegate

    /// Creates a transport with a session of its own.
    ///
    /// - Parameters:
    ///   - maxMessageBytes: the largest message received.
    ///   - handshakeTimeout: how long the opening handshake may take.
    public init(maxMessageBytes: Int = 16 * 1024 * 1024, handshakeTimeout: Duration = .seconds(30)) {
        self.maxMessageBytes = max(1024, maxMessageBytes)
        self.handshakeTimeout = handshakeTimeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        configuration.timeoutIntervalForRequest = max(1, handshakeTimeout.seconds)
        delegate = WebSocketSessionDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    /// Opens a connection.
    ///
    /// - Throws: `.invalidRequest`, `.status`, `.transport`, `.timeout`, `.unsupported` (no
    ///   WebSocket support in this platform's URLSession), or `CancellationError`.
    @concurrent public func connect(to url: URL, headers: HTTPHeaders, subprotocols: [String]) async throws
        -> any WebSocketConnection {
        guard let target = url.webSocketURL else { throw GatewayError.notWebSocketURL(url) }
        var request = URLRequest(url: target)
        for field in headers { request.addValue(field.value, forHTTPHeaderField: field.name) }
        if !subprotocols.isEmpty {
            request.setValue(subprotocols.joined(separator: ", "), forHTTPHeaderField: "Sec-WebSocket-Protocol")
        }
        let task = session.webSocketTask(with: request)
        task.maximumMessageSize = maxMessageBytes
        let chosen = try await withTaskCancellationHandler {
            try await delegate.open(task)
        } onCancel: {
            task.cancel()
        }
        return URLSessionWebSocketConnection(task: task, subprotocol: chosen, delegate: delegate)
    }

    /// Why the platform's failure to open means it has no WebSocket support.
    static func unsupported(_ error: any Error) -> GatewayError {
        GatewayError(.unsupported,
                     "this platform's URLSession cannot open WebSockets (its libcurl was built without WebSocket support)",
                     fix: "use SocketWebSocketTransport for ws:// URLs, or NIOWebSocketTransport from the "
                        + "Transports/AsyncHTTPClient package (SwiftNIO; ws and wss on Linux and Apple platforms)",
                     underlying: error)
    }
}

/// The session's delegate: the handshake's outcome for each task, and the close each task got.
final class WebSocketSessionDelegate: NSObject, URLSessionWebSocketDelegate, Sendable {
    private struct State {
        var opening: [Int: CheckedContinuation<String?, any Error>] = [:]
        var closes: [Int: WebSocketClose] = [:]
    }

    private let state = Locked(State())

    /// Starts `task` and returns the subprotocol the server chose once the handshake is done.
    func open(_ task: URLSessionWebSocketTask) async throws -> String? {
        try await withCheckedThrowingContinuation { continuation in
            state.withLock { $0.opening[task.taskIdentifier] = continuation }
            task.resume()
        }
    }

    /// The close `task` received, once and then forgotten.
    func takeClose(of task: URLSessionTask) -> WebSocketClose? {
        state.withLock { $0.closes.removeValue(forKey: task.taskIdentifier) }
    }

    func urlSession(_ session: URLSession, webSocketTask: URLSessionWebSocketTask,
                    didOpenWithProtocol chosen: String?) {
        let waiter = state.withLock { $0.opening.removeValue(forKey: webSocketTask.taskIdentifier) }
        waiter?.resume(returning: chosen.flatMap { $0.isEmpty ? nil : $0 })
    }

    func urlSession(_ session: URLSession, webSocketTask: URLSessionWebSocketTask,
                    didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?) {
        let close = WebSocketClose(code: WebSocketCloseCode(rawValue: UInt16(clamping: closeCode.rawValue)),
                                   reason: reason.map { String(decoding: $0, as: UTF8.self) } ?? "")
        state.withLock { $0.closes[webSocketTask.taskIdentifier] = close }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let waiter = state.withLock { $0.opening.removeValue(forKey: task.taskIdentifier) }
        guard let waiter else { return }
        waiter.resume(throwing: Self.openingFailure(task, error))
    }

    /// The error a failed handshake ends with.
    private static func openingFailure(_ task: URLSessionTask, _ error: (any Error)?) -> any Error {
        let url = task.originalRequest?.url ?? URL(fileURLWithPath: "/")
        if let http = task.response as? HTTPURLResponse, http.statusCode != 101 {
            return GatewayError.webSocketHandshakeRefused(HTTPResponse(status: http.statusCode, url: url), url: url)
        }
        guard let error else { return GatewayError.webSocketClosed("the handshake ended without an answer") }
        let code = (error as? URLError)?.code
        if code == .cancelled { return CancellationError() }
        #if canImport(FoundationNetworking)
        if code == .unsupportedURL { return URLSessionWebSocketTransport.unsupported(error) }
        #endif
        if code == .timedOut { return GatewayError(.timeout, "the WebSocket handshake timed out", underlying: error) }
        return GatewayError(.transport, "the WebSocket connection could not be opened", underlying: error)
    }
}
