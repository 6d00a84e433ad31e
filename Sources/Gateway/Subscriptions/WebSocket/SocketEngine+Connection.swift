import Foundation

/// Opening, reading and closing the socket.
extension SocketEngine {
    /// Starts a new generation and opens a socket in it: the credential first, then the
    /// handshake offering `graphql-transport-ws`.
    func connect() {
        abandonSocket(closing: .normalClosure)
        phase = .connecting
        let stamp = generation
        let url = url
        let headers = headers
        let transport = transport
        let authorization = authorization
        let inbox = inbox
        tasks.append(Task {
            await SocketEngine.open(url: url, headers: headers, transport: transport, authorization: authorization,
                            inbox: inbox, stamp: stamp)
        })
    }

    /// Gets the credential and opens the connection; posts `.opened` or `.connectFailed`.
    private static func open(url: URL, headers: HTTPHeaders, transport: any WebSocketTransport,
                             authorization: SocketAuthorization, inbox: AsyncStream<Event>.Continuation,
                             stamp: UInt64) async {
        var credential: Credential?
        do {
            credential = try await authorization.credential()
        } catch {
            inbox.yield(.connectFailed(stamp, error, retryable: false))
            return
        }
        let connection: any WebSocketConnection
        do {
            connection = try await transport.connect(to: url, headers: headers,
                                                     subprotocols: [TransportWSMessage.subprotocol])
        } catch {
            inbox.yield(.connectFailed(stamp, error, retryable: isPassing(error)))
            return
        }
        let result = inbox.yield(.opened(stamp, connection, credential))
        if case .terminated = result {
            await connection.close(code: .normalClosure, reason: "")
        }
    }

    /// The handshake succeeded: reads the socket, sends `connection_init`, and waits (bounded)
    /// for `connection_ack`.
    func opened(_ connection: any WebSocketConnection, _ credential: Credential?, _ stamp: UInt64) async {
        guard stamp == generation, case .connecting = phase else {
            Task { await connection.close(code: .normalClosure, reason: "") }
            return
        }
        phase = .acknowledging(connection)
        sentCredential = credential
        receivedSinceTick = false
        pingOutstanding = false
        let inbox = inbox
        tasks.append(Task {
            for await event in connection.events {
                switch event {
                case .text(let text): inbox.yield(.received(stamp, text))
                case .closed(let close):
                    inbox.yield(.closed(stamp, close))
                    return
                }
            }
            inbox.yield(.closed(stamp, WebSocketClose(code: .abnormalClosure, reason: "the connection ended")))
        })
        if let chosen = connection.subprotocol, chosen != TransportWSMessage.subprotocol {
            failAll(GatewayError(
                .invalidResponse,
                "the server chose the WebSocket subprotocol \"\(chosen.prefix(60))\", not graphql-transport-ws",
                fix: "point the client at an endpoint that serves the GraphQL over WebSocket protocol (graphql-ws)"))
            return
        }
        let clock = options.clock
        let timeout = options.acknowledgementTimeout
        acknowledgementTimer = Task {
            guard (try? await clock.sleep(for: timeout)) != nil else { return }
            inbox.yield(.acknowledgementTimedOut(stamp))
        }
        await send(TransportWSMessage.connectionInit(options.connectionPayload(credential)), on: connection)
    }

    /// `connection_ack` came: subscriptions flow, the keep-alive starts, the failure count
    /// starts again.
    func acknowledged(on connection: any WebSocketConnection) async {
        phase = .ready(connection)
        failures = 0
        renewedSinceAcknowledgement = false
        acknowledgementTimer?.cancel()
        acknowledgementTimer = nil
        if let interval = options.keepAlive, interval > .zero {
            let clock = options.clock
            let inbox = inbox
            let stamp = generation
            tasks.append(Task {
                while (try? await clock.sleep(for: interval)) != nil {
                    inbox.yield(.keepAliveTick(stamp))
                }
            })
        }
        await sendSubscriptions(on: connection)
        releaseIfUnused()
    }

    /// Ends the current generation: its tasks are cancelled, its socket (if open) is closed
    /// with `code`, every subscriber is marked unsent, and the phase is `.idle`.
    func abandonSocket(closing code: WebSocketCloseCode) {
        generation += 1
        for task in tasks { task.cancel() }
        tasks = []
        acknowledgementTimer?.cancel()
        acknowledgementTimer = nil
        lingerTimer?.cancel()
        lingerTimer = nil
        if let connection = phase.connection {
            Task { await connection.close(code: code, reason: "") }
        }
        phase = .idle
        for id in subscribers.keys { subscribers[id]?.sent = false }
    }

    /// Whether a failure to connect may pass on its own (the network, a timeout, a server
    /// error), so that connecting again later may succeed.
    static func isPassing(_ error: any Error) -> Bool {
        guard let failure = error as? GatewayError else { return !error.isCancellation }
        switch failure.kind {
        case .transport, .timeout: return true
        case .status: return failure.status.map { $0 >= 500 || $0 == 408 || $0 == 429 } ?? false
        default: return false
        }
    }
}
