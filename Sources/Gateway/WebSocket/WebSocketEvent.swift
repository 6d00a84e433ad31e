/// What a `WebSocketConnection` delivers: a text message, or the close that ends the connection.
public enum WebSocketEvent: Sendable, Hashable {
    /// One whole text message.
    case text(String)
    /// The connection closed; the last event.
    case closed(WebSocketClose)
}

/// How a WebSocket connection closed: its code and reason.
public struct WebSocketClose: Sendable, Hashable, CustomStringConvertible {
    /// The close code: the one in the close frame, or `.abnormalClosure` when the connection
    /// dropped without one.
    public var code: WebSocketCloseCode
    /// The close frame's reason, or what the transport knows about a drop; may be empty.
    public var reason: String

    /// Creates a close.
    ///
    /// - Parameters:
    ///   - code: the close code.
    ///   - reason: the reason text.
    public init(code: WebSocketCloseCode, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// `4401 Unauthorized` or `1006` alone when there is no reason.
    public var description: String { reason.isEmpty ? "\(code)" : "\(code) \(reason)" }
}
