import Foundation
import Gateway
import NIOCore
import NIOWebSocket

/// The WebSocket side of an upgraded channel: puts fragmented text messages together, answers
/// pings and closes, and delivers messages and the close to the connection's `events`.
///
/// Lives on its channel's event loop; the connection reaches it through `NIOLoopBound`.
/// Invariant: `.closed` is delivered exactly once, then `events` ends.
final class WebSocketFrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let output: AsyncStream<WebSocketEvent>.Continuation
    private let maxMessageBytes: Int
    private let closeTimeout: Duration
    private var context: ChannelHandlerContext?
    /// The text message being put together from its fragments.
    private var fragments: ByteBuffer?
    /// The code of the close frame this side sent, once sent.
    private var sentClose: WebSocketCloseCode?
    private var delivered = false

    init(output: AsyncStream<WebSocketEvent>.Continuation, maxMessageBytes: Int, closeTimeout: Duration) {
        self.output = output
        self.maxMessageBytes = maxMessageBytes
        self.closeTimeout = closeTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) { self.context = context }
    func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text where fragments == nil:
            append(frame, starting: true)
        case .continuation where fragments != nil:
            append(frame, starting: false)
        case .text, .continuation:
            fail(.protocolError, "a fragmented message was interrupted by another")
        case .binary:
            fail(.unsupportedData, "binary messages are not accepted")
        case .ping:
            guard sentClose == nil else { return }
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            var data = frame.unmaskedData
            let number = data.readInteger(as: UInt16.self)
            let reason = data.readString(length: data.readableBytes) ?? ""
            let code = number.map { WebSocketCloseCode(rawValue: $0) } ?? .noStatusReceived
            if let sentClose {
                deliver(WebSocketClose(code: sentClose, reason: reason))
            } else {
                sendClose(number.map { _ in code } ?? .normalClosure, reason: "")
                deliver(WebSocketClose(code: code, reason: reason))
            }
            context.close(promise: nil)
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        deliver(WebSocketClose(code: sentClose ?? .abnormalClosure,
                               reason: sentClose == nil ? "the connection was lost" : ""))
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let frameError = error as? NIOWebSocketError {
            switch frameError {
            case .invalidFrameLength: fail(.messageTooBig, "a frame is larger than \(maxMessageBytes) bytes")
            default: fail(.protocolError, "a frame broke the WebSocket protocol")
            }
            return
        }
        deliver(WebSocketClose(code: .abnormalClosure, reason: "the connection failed: \(type(of: error))"))
        context.close(promise: nil)
    }

    // MARK: - Called by the connection, on the event loop

    /// Sends one text message as a masked frame.
    func sendText(_ text: String) -> EventLoopFuture<Void>? {
        guard let context, sentClose == nil, !delivered else { return nil }
        let data = context.channel.allocator.buffer(string: text)
        let frame = WebSocketFrame(fin: true, opcode: .text, maskKey: .random(), data: data)
        return context.writeAndFlush(wrapOutboundOut(frame))
    }

    /// Starts the close handshake: the TCP connection closes when the server's close frame
    /// arrives, or after `closeTimeout`.
    func close(code: WebSocketCloseCode, reason: String) {
        guard let context, sentClose == nil, !delivered else { return }
        sendClose(code, reason: reason)
        let channel = context.channel
        channel.eventLoop.scheduleTask(in: AsyncHTTPClientTransport.timeAmount(closeTimeout)) {
            channel.close(promise: nil)
        }
    }

    // MARK: - Inside

    private func append(_ frame: WebSocketFrame, starting: Bool) {
        var data = frame.unmaskedData
        if starting {
            fragments = data
        } else {
            fragments?.writeBuffer(&data)
        }
        guard let message = fragments else { return }
        guard message.readableBytes <= maxMessageBytes else {
            fail(.messageTooBig, "a message is larger than \(maxMessageBytes) bytes")
            return
        }
        guard frame.fin else { return }
        fragments = nil
        guard let text = String(validatingUTF8Bytes: message.readableBytesView) else {
            fail(.invalidPayload, "a text message is not UTF-8")
            return
        }
        if !delivered { output.yield(.text(text)) }
    }

    /// Closes because of the server's fault: a close frame with `code`, then the connection.
    private func fail(_ code: WebSocketCloseCode, _ reason: String) {
        fragments = nil
        if sentClose == nil { sendClose(code, reason: reason) }
        deliver(WebSocketClose(code: code, reason: reason))
        context?.close(promise: nil)
    }

    private func sendClose(_ code: WebSocketCloseCode, reason: String) {
        guard let context, sentClose == nil else { return }
        sentClose = code
        var data = context.channel.allocator.buffer(capacity: 2 + 123)
        data.writeInteger(code.rawValue)
        data.writeBytes(reason.utf8.prefix(123))
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data)
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }

    private func deliver(_ close: WebSocketClose) {
        guard !delivered else { return }
        delivered = true
        output.yield(.closed(close))
        output.finish()
    }
}

extension String {
    /// The text of UTF-8 bytes, or `nil` when they are not valid UTF-8.
    init?(validatingUTF8Bytes bytes: ByteBufferView) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        self = text
    }
}
