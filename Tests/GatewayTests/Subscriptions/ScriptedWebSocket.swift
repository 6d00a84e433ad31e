import Foundation
@testable import Gateway
import GatewayTesting

/// A queue one side fills and the other waits on: `take()` returns the next item, waiting
/// (without sleeping) until there is one.
final class Mailbox<Item: Sendable>: Sendable {
    private struct State {
        var items: [Item] = []
        var waiters: [CheckedContinuation<Item, Never>] = []
    }

    private let state = Locked(State())

    func put(_ item: Item) {
        let waiter = state.withLock { state -> CheckedContinuation<Item, Never>? in
            if state.waiters.isEmpty {
                state.items.append(item)
                return nil
            }
            return state.waiters.removeFirst()
        }
        waiter?.resume(returning: item)
    }

    func take() async -> Item {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Item? in
                if !state.items.isEmpty { return state.items.removeFirst() }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// The items not yet taken.
    var pending: [Item] { state.withLock { $0.items } }
}

/// What the client did on a scripted socket.
enum ClientFrame: Sendable, Equatable {
    case text(String)
    case close(WebSocketCloseCode)
}

/// The server's end of one scripted socket: what the client sends arrives in `frames`; the
/// test serves messages and closes.
final class ScriptedConnection: WebSocketConnection {
    let subprotocol: String?
    let events: AsyncStream<WebSocketEvent>
    let headers: HTTPHeaders
    private let output: AsyncStream<WebSocketEvent>.Continuation
    let frames = Mailbox<ClientFrame>()
    private let isClosed = Locked(false)

    init(subprotocol: String?, headers: HTTPHeaders) {
        self.subprotocol = subprotocol
        self.headers = headers
        (events, output) = AsyncStream.makeStream(of: WebSocketEvent.self)
    }

    func send(_ text: String) async throws {
        guard !isClosed.value else { throw GatewayError.webSocketClosed("closed") }
        frames.put(.text(text))
    }

    func close(code: WebSocketCloseCode, reason: String) async {
        guard !isClosed.withLock({ closed in defer { closed = true }; return closed }) else { return }
        frames.put(.close(code))
        output.yield(.closed(WebSocketClose(code: code, reason: reason)))
        output.finish()
    }

    /// The next thing the client did.
    func next() async -> ClientFrame { await frames.take() }

    /// Sends a message to the client.
    func serve(_ text: String) { output.yield(.text(text)) }

    /// Closes from the server's side with `code` (`.abnormalClosure` for a drop).
    func serverClose(_ code: WebSocketCloseCode, reason: String = "") {
        isClosed.withLock { $0 = true }
        output.yield(.closed(WebSocketClose(code: code, reason: reason)))
        output.finish()
    }
}

/// A `WebSocketTransport` whose connections a test takes and plays the server of; connects
/// fail while `failures` has errors in it.
final class ScriptedWebSocketTransport: WebSocketTransport {
    let connections = Mailbox<ScriptedConnection>()
    private let failures: Locked<[GatewayError]>
    private let attempts = Locked(0)
    let subprotocol: String?

    init(failures: [GatewayError] = [], subprotocol: String? = "graphql-transport-ws") {
        self.failures = Locked(failures)
        self.subprotocol = subprotocol
    }

    /// How many connects were asked for.
    var connectCount: Int { attempts.value }

    /// Makes the next connects fail with `errors`, in order.
    func failNext(_ errors: GatewayError...) { failures.withLock { $0 += errors } }

    func connect(to url: URL, headers: HTTPHeaders, subprotocols: [String]) async throws -> any WebSocketConnection {
        attempts.withLock { $0 += 1 }
        if let failure = failures.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { throw failure }
        let connection = ScriptedConnection(subprotocol: subprotocol, headers: headers)
        connections.put(connection)
        return connection
    }

    /// The next socket the client opened.
    func accept() async -> ScriptedConnection { await connections.take() }
}

extension ScriptedConnection {
    /// Expects `connection_init` and acknowledges it; returns the init message.
    @discardableResult
    func acknowledge() async -> ClientFrame {
        let initialisation = await next()
        serve(#"{"type":"connection_ack"}"#)
        return initialisation
    }
}

/// The `subscribe` message the client sends for `id` and `query`.
func subscribeFrame(_ id: Int, _ query: String) -> ClientFrame {
    .text(#"{"id":"\#(id)","type":"subscribe","payload":{"query":"\#(query)"}}"#)
}

/// Collects a subscription's results as text, and its ending error.
func collect(_ results: AsyncThrowingStream<Data, any Error>) async -> (results: [String], error: (any Error)?) {
    var texts: [String] = []
    do {
        for try await result in results { texts.append(String(decoding: result, as: UTF8.self)) }
        return (texts, nil)
    } catch {
        return (texts, error)
    }
}
