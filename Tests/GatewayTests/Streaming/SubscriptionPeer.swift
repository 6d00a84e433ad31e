import Foundation
import GatewayTestSupport

/// strawberry-graphql on uvicorn serving `subscription_server.py` (beside this file) on
/// 127.0.0.1: multipart subscriptions, graphql-sse's distinct connections mode and
/// graphql-transport-ws, and a WebSocket echo app (see `WebSocketPeer`). One per test process,
/// started on first use off the cooperative pool; it exits with the test process.
enum SubscriptionPeer {
    /// The running server, or `nil` when strawberry-graphql, uvicorn or websockets is not installed.
    static let shared = Task<PythonPeer?, any Error> {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("subscription_server.py")
        return try await PythonPeer.launch(script: try String(contentsOf: script, encoding: .utf8))
    }

    /// Whether the server runs (for `.requires`).
    static func isRunning() async throws -> Bool { try await shared.value != nil }
}
