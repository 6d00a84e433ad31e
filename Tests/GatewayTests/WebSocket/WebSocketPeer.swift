import Foundation
import GatewayTestSupport
import Testing

/// The WebSocket side of `subscription_server.py` (Streaming/, beside `SubscriptionPeer`): uvicorn
/// with the `websockets` package serving `/echo`, an ASGI app that echoes text and closes on
/// "close <code> <reason>", and strawberry-graphql over graphql-transport-ws at any other path.
/// It is `SubscriptionPeer`'s server: one per test process, started on first use off the
/// cooperative pool; it exits with the test process.
enum WebSocketPeer {
    /// The running server, or `nil` when a module it needs is not installed.
    static var shared: Task<PythonPeer?, any Error> { SubscriptionPeer.shared }

    /// Whether the server runs (for `.requires`).
    static func isRunning() async throws -> Bool { try await SubscriptionPeer.isRunning() }

    /// `ws://127.0.0.1:<port><path>`.
    static func url(_ path: String) async throws -> URL {
        let peer = try #require(try await shared.value)
        return try #require(URL(string: "ws://127.0.0.1:\(peer.port)\(path)"))
    }
}
