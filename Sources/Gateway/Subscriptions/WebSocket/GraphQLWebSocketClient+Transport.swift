import Foundation

extension GraphQLWebSocketClient {
    /// The WebSocket transport a client uses when none is given: the platform's URLSession where
    /// it can open WebSockets (Apple platforms), and Gateway's own `SocketWebSocketTransport`
    /// elsewhere (Linux, whose Foundation URLSession goes through a libcurl that Debian and
    /// Ubuntu build without WebSocket support).
    ///
    /// `SocketWebSocketTransport` speaks `ws://` only; for `wss://` on Linux give the client
    /// `NIOWebSocketTransport` from the `Transports/AsyncHTTPClient` package.
    public static func defaultTransport() -> any WebSocketTransport {
        #if canImport(FoundationNetworking)
        SocketWebSocketTransport()
        #else
        URLSessionWebSocketTransport()
        #endif
    }
}
