import Foundation
import GraphQLLanguage

/// What the engine does with the server's messages, and the keep-alive.
extension SocketEngine {
    /// One message from the server.
    func received(_ text: String) async {
        guard let connection = phase.connection else { return }
        receivedSinceTick = true
        let message: TransportWSMessage
        do {
            message = try TransportWSMessage(parsing: text)
        } catch {
            abandonSocket(closing: .badRequest)
            failAll(GatewayError(.invalidResponse, "the subscription server sent a message the GraphQL over WebSocket "
                                    + "protocol does not allow: \(error.reason)"))
            return
        }
        switch message {
        case .connectionAck:
            if case .acknowledging = phase { await acknowledged(on: connection) }
        case .ping:
            await send(TransportWSMessage.pongText, on: connection)
        case .pong:
            break
        case .next(let id, let result):
            guard let id = UInt64(id) else { return }
            subscribers[id]?.continuation.yield(result)
        case .error(let id, let errors):
            guard let id = UInt64(id), let subscriber = subscribers.removeValue(forKey: id) else { return }
            subscriber.continuation.finish(throwing: Self.refusal(errors, subscriber.operation))
            releaseIfUnused()
        case .complete(let id):
            guard let id = UInt64(id), let subscriber = subscribers.removeValue(forKey: id) else { return }
            subscriber.continuation.finish()
            releaseIfUnused()
        }
    }

    /// Every `Options.keepAlive` on an acknowledged socket: a `ping` when nothing came in the
    /// last interval; the socket counts as lost when nothing came for two.
    func keepAliveTick() async {
        guard case .ready(let connection) = phase else { return }
        if receivedSinceTick {
            receivedSinceTick = false
            pingOutstanding = false
        } else if pingOutstanding {
            abandonSocket(closing: .goingAway)
            scheduleReconnect(after: GatewayError(.timeout, "the subscription server answered nothing, not even a "
                                                    + "ping, for twice the keep-alive interval"))
        } else {
            pingOutstanding = true
            await send(TransportWSMessage.pingText, on: connection)
        }
    }

    /// The error an `error` message ends its subscription with.
    static func refusal(_ errors: [JSONValue], _ operation: GraphQLWebSocketClient.Operation) -> GatewayError {
        let messages = errors.compactMap { $0["message"]?.stringValue }
        let listed = messages.isEmpty ? "no message given" : messages.prefix(3).joined(separator: "; ")
        return GatewayError(.graphQLErrors, "the server refused the subscription: \(listed)",
                            endpoint: operation.operationName)
    }
}
