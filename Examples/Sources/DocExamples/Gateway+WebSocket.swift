// The examples of Sources/Gateway/WebSocket and Sources/Gateway/Subscriptions/WebSocket.
import Foundation
import Gateway
import GraphQLLanguage

// WebSocketTransport
struct LoopbackSockets: WebSocketTransport {
    let open: @Sendable (URL) async throws -> any WebSocketConnection
    func connect(to url: URL, headers: HTTPHeaders, subprotocols: [String]) async throws
        -> any WebSocketConnection {
        try await open(url)
    }
}

// WebSocketConnection
final class EchoConnection: WebSocketConnection {
    let events: AsyncStream<WebSocketEvent>
    private let inbox: AsyncStream<WebSocketEvent>.Continuation
    let subprotocol: String? = nil

    init() { (events, inbox) = AsyncStream.makeStream(of: WebSocketEvent.self) }

    func send(_ text: String) async throws { inbox.yield(.text(text)) }
    func close(code: WebSocketCloseCode, reason: String) async {
        inbox.yield(.closed(WebSocketClose(code: code, reason: reason)))
        inbox.finish()
    }
}

// GraphQLWebSocketClient
func graphQLWebSocketClient(provider: Provider) async throws {
    let client = GraphQLWebSocketClient(url: URL(string: "wss://api.example.com/graphql")!,
                                        transport: URLSessionWebSocketTransport(),
                                        provider: provider)
    let results = client.subscribe(.init(query: "subscription { count(to: 3) }"))
    for try await result in results {
        print(String(decoding: result, as: UTF8.self))   // {"data":{"count":1}} …
    }
}

// URLSessionWebSocketTransport
func urlSessionWebSocketTransport(provider: Provider) {
    let client = GraphQLWebSocketClient(url: URL(string: "wss://api.example.com/graphql")!,
                                        transport: URLSessionWebSocketTransport(), provider: provider)
    _ = client
}

// SocketWebSocketTransport
func socketWebSocketTransport() {
    let client = GraphQLWebSocketClient(url: URL(string: "ws://127.0.0.1:8000/graphql")!,
                                        transport: SocketWebSocketTransport())
    _ = client
}
