import Foundation
import Gateway
import NIOCore
import NIOHTTP1
import NIOSSL
import NIOWebSocket

/// Where a WebSocket goes: host, port, path and whether it is `wss`.
struct WebSocketTarget: Sendable {
    let url: URL
    let host: String
    let port: Int
    let secure: Bool
    /// The path and query the handshake asks for.
    let resource: String

    /// - Throws: `GatewayError.notWebSocketURL` for a URL that is not ws, wss, http or https
    ///   with a host.
    init(_ url: URL) throws {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let scheme = parts.scheme?.lowercased(), let host = parts.host, !host.isEmpty
        else { throw GatewayError.notWebSocketURL(url) }
        switch scheme {
        case "ws", "http": parts.scheme = "ws"
        case "wss", "https": parts.scheme = "wss"
        default: throw GatewayError.notWebSocketURL(url)
        }
        guard let target = parts.url else { throw GatewayError.notWebSocketURL(url) }
        self.url = target
        secure = parts.scheme == "wss"
        // A bracketed IPv6 literal connects without its brackets.
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        port = parts.port ?? (secure ? 443 : 80)
        let path = parts.percentEncodedPath.isEmpty ? "/" : parts.percentEncodedPath
        resource = parts.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }

    /// The `Host` header's value: the port only when it is not the scheme's default.
    var hostHeader: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return port == (secure ? 443 : 80) ? shown : "\(shown):\(port)"
    }

    /// Whether the host is an IP address (which TLS does not send as SNI).
    var hostIsAddress: Bool { (try? SocketAddress(ipAddress: host, port: 0)) != nil }
}

/// Setting up a channel for the opening handshake, and what it ends with.
enum WebSocketHandshake {
    /// What a successful handshake hands over.
    struct Outcome: Sendable {
        let handler: NIOLoopBound<WebSocketFrameHandler>
        let subprotocol: String?
    }

    /// The server answered with another status than 101.
    struct Refused: Error {
        let status: Int
        let headers: Gateway.HTTPHeaders
    }

    /// The handshake did not end within its timeout.
    struct TimedOut: Error {}

    /// The connection closed before the handshake ended.
    struct ClosedEarly: Error {}

    static func requestHead(_ target: WebSocketTarget, headers: Gateway.HTTPHeaders, subprotocols: [String])
        -> HTTPRequestHead {
        var fields = NIOHTTP1.HTTPHeaders()
        fields.add(name: "Host", value: target.hostHeader)
        for field in headers where !Self.reserved.contains(field.name.lowercased()) {
            fields.add(name: field.name, value: field.value)
        }
        if !subprotocols.isEmpty { fields.add(name: "Sec-WebSocket-Protocol", value: subprotocols.joined(separator: ", ")) }
        return HTTPRequestHead(version: .http1_1, method: .GET, uri: target.resource, headers: fields)
    }

    /// The name the handshake request's handler has in the pipeline, until the upgrade.
    static let handshakeHandlerName = "gateway.websocket-handshake"

    /// Header fields the handshake writes itself.
    static let reserved: Set<String> = [
        "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-protocol",
        "content-length", "transfer-encoding",
    ]

    /// Adds TLS (for `wss`), the HTTP codec with the WebSocket upgrader, and the handler that
    /// sends the handshake request; on upgrade the frame handler takes over.
    static func configure(_ channel: any Channel, target: WebSocketTarget, tls: NIOSSLContext?, head: HTTPRequestHead,
                          opened: EventLoopPromise<Outcome>, output: AsyncStream<WebSocketEvent>.Continuation,
                          limits: (maxMessageBytes: Int, closeTimeout: Duration)) throws {
        let pipeline = channel.pipeline.syncOperations
        if let tls {
            try pipeline.addHandler(NIOSSLClientHandler(context: tls,
                                                        serverHostname: target.hostIsAddress ? nil : target.host))
        }
        let request = HandshakeRequestHandler(head: head, opened: opened)
        let upgrader = NIOWebSocketClientUpgrader(maxFrameSize: limits.maxMessageBytes, automaticErrorHandling: false) {
            channel, response in
            let frames = WebSocketFrameHandler(output: output, maxMessageBytes: limits.maxMessageBytes,
                                               closeTimeout: limits.closeTimeout)
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(frames)
                let chosen = response.headers.first(name: "Sec-WebSocket-Protocol")
                opened.succeed(Outcome(handler: NIOLoopBound(frames, eventLoop: channel.eventLoop),
                                       subprotocol: chosen.flatMap { $0.isEmpty ? nil : $0 }))
            }
        }
        try pipeline.addHTTPClientHandlers(
            leftOverBytesStrategy: .forwardBytes,
            withClientUpgrade: (upgraders: [upgrader], completionHandler: { context in
                context.pipeline.syncOperations.removeHandler(name: handshakeHandlerName, promise: nil)
            }))
        try pipeline.addHandler(request, name: handshakeHandlerName)
    }
}

/// Sends the handshake request once the connection is up, and fails the handshake when the
/// answer is not an upgrade or the connection ends first.
final class HandshakeRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let head: HTTPRequestHead
    private let opened: EventLoopPromise<WebSocketHandshake.Outcome>

    init(head: HTTPRequestHead, opened: EventLoopPromise<WebSocketHandshake.Outcome>) {
        self.head = head
        self.opened = opened
    }

    func channelActive(context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let response) = unwrapInboundIn(data) else { return }
        var headers = Gateway.HTTPHeaders()
        for (name, value) in response.headers { headers.add(name: name, value: value) }
        opened.fail(WebSocketHandshake.Refused(status: Int(response.status.code), headers: headers))
        context.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        opened.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        opened.fail(WebSocketHandshake.ClosedEarly())
        context.fireChannelInactive()
    }
}
