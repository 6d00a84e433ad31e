import Foundation
import Gateway
import NIOCore

/// One upgraded channel as a `WebSocketConnection`; its frame handler does the work on the
/// channel's event loop.
final class NIOWebSocketConnection: WebSocketConnection {
    let subprotocol: String?
    let events: AsyncStream<WebSocketEvent>
    private let channel: any Channel
    private let handler: NIOLoopBound<WebSocketFrameHandler>

    init(channel: any Channel, handler: NIOLoopBound<WebSocketFrameHandler>, subprotocol: String?,
         events: AsyncStream<WebSocketEvent>) {
        self.channel = channel
        self.handler = handler
        self.subprotocol = subprotocol
        self.events = events
    }

    func send(_ text: String) async throws {
        let handler = handler
        let written = channel.eventLoop.flatSubmit { () -> EventLoopFuture<Void> in
            guard let written = handler.value.sendText(text) else {
                return self.channel.eventLoop.makeFailedFuture(GatewayError.webSocketClosed("the close handshake has begun"))
            }
            return written
        }
        do {
            try await written.get()
        } catch let failure as GatewayError {
            throw failure
        } catch {
            throw GatewayError(.transport, "the WebSocket message could not be sent", underlying: error)
        }
    }

    func close(code: WebSocketCloseCode, reason: String) async {
        let handler = handler
        try? await channel.eventLoop.submit { handler.value.close(code: code, reason: reason) }.get()
    }
}
