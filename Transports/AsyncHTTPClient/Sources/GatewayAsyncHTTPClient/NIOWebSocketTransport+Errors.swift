import Foundation
import Gateway
import NIOCore
import NIOHTTP1
import NIOSSL

extension NIOWebSocketTransport {
    /// The error a failed TCP connect ends with.
    static func connectFailure(_ error: any Error, _ target: WebSocketTarget) -> any Error {
        if error is CancellationError { return error }
        let place = "\(target.host):\(target.port)"
        if case ChannelError.connectTimeout = error {
            return GatewayError(.timeout, "connecting to \(place) for a WebSocket timed out", underlying: error)
        }
        return GatewayError(.transport, "could not connect to \(place) for a WebSocket", underlying: error)
    }

    /// The error a failed handshake ends with.
    static func handshakeFailure(_ error: any Error, _ target: WebSocketTarget) -> any Error {
        switch error {
        case is CancellationError:
            return error
        case let refused as WebSocketHandshake.Refused:
            let response = HTTPResponse(status: refused.status, headers: refused.headers, url: target.url)
            return GatewayError.webSocketHandshakeRefused(response, url: target.url)
        case is WebSocketHandshake.TimedOut:
            return GatewayError(.timeout, "the WebSocket handshake with \(target.host):\(target.port) did not end in time")
        case is NIOHTTPClientUpgradeError:
            return GatewayError(.transport, "the server's answer to the WebSocket handshake is not a valid upgrade "
                                    + "(a wrong Sec-WebSocket-Accept, or no Upgrade: websocket)", underlying: error)
        case is NIOSSLError, is BoringSSLError:
            return GatewayError(.transport, "TLS with \(target.host):\(target.port) failed", underlying: error)
        case is WebSocketHandshake.ClosedEarly:
            return GatewayError(.transport, "the connection to \(target.host):\(target.port) closed during the "
                                    + "WebSocket handshake")
        default:
            return GatewayError(.transport, "the WebSocket handshake with \(target.host):\(target.port) failed",
                                underlying: error)
        }
    }
}
