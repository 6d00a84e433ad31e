import Foundation
import GraphQLLanguage

/// Runs one `GraphQLWebSocketClient`'s socket: every event (a subscription started or ended,
/// a message, a close, a timer) is handled in order on one task, so the state below needs no
/// lock. Work that waits (connecting, renewing the credential, timers, reading the socket)
/// runs in tasks of its own that post their outcome back as an event.
///
/// Invariants:
/// - Events about a socket carry the `generation` they were started in; an event of an older
///   generation is stale and changes nothing. `abandonSocket()` starts a new generation and
///   cancels the old one's tasks.
/// - A subscriber's `subscribe` message was sent on the current socket exactly when `sent`;
///   after a new socket is acknowledged every subscriber is sent again, in the order started.
/// - The socket is open (or being opened) only while there are subscribers, or lingering after
///   the last one for `Options.linger`.
final class SocketEngine {
    /// What the engine handles, in the order posted.
    enum Event: Sendable {
        case subscribe(id: UInt64, GraphQLWebSocketClient.Operation, AsyncThrowingStream<Data, any Error>.Continuation)
        case ended(id: UInt64)
        case opened(UInt64, any WebSocketConnection, Credential?)
        case connectFailed(UInt64, any Error, retryable: Bool)
        case received(UInt64, String)
        case closed(UInt64, WebSocketClose)
        case acknowledgementTimedOut(UInt64)
        case keepAliveTick(UInt64)
        case lingerEnded(UInt64)
        case reconnectDue(UInt64)
        case renewed(UInt64)
        case renewFailed(UInt64, any Error)
    }

    struct Subscriber {
        let operation: GraphQLWebSocketClient.Operation
        let continuation: AsyncThrowingStream<Data, any Error>.Continuation
        var sent = false
    }

    enum Phase {
        /// No socket, and nothing under way.
        case idle
        /// A connection is being opened.
        case connecting
        /// `connection_init` is sent; `connection_ack` has not come yet.
        case acknowledging(any WebSocketConnection)
        /// Acknowledged: subscriptions flow.
        case ready(any WebSocketConnection)
        /// Waiting to reconnect: a back-off or a credential refresh.
        case waiting

        /// The open socket, once the handshake is done.
        var connection: (any WebSocketConnection)? {
            switch self {
            case .acknowledging(let connection), .ready(let connection): connection
            case .idle, .connecting, .waiting: nil
            }
        }
    }

    let url: URL
    let headers: HTTPHeaders
    let transport: any WebSocketTransport
    let authorization: SocketAuthorization
    let options: GraphQLWebSocketClient.Options
    /// Where the engine's own tasks post their events.
    let inbox: AsyncStream<Event>.Continuation

    var phase = Phase.idle
    var generation: UInt64 = 0
    var subscribers: [UInt64: Subscriber] = [:]
    /// The tasks of the current generation (connect, reader, timers), cancelled when it ends.
    var tasks: [Task<Void, Never>] = []
    /// The wait for `connection_ack` on the current socket.
    var acknowledgementTimer: Task<Void, Never>?
    /// Failed attempts to open a socket in a row (reset by `connection_ack`).
    var failures = 0
    /// Whether the credential was renewed since the last `connection_ack`: a second refusal in
    /// a row ends the subscriptions instead of refreshing again.
    var renewedSinceAcknowledgement = false
    /// The credential the current socket's `connection_init` carried.
    var sentCredential: Credential?
    var receivedSinceTick = false
    var pingOutstanding = false
    var lingerToken: UInt64 = 0
    /// The wait before an unused socket is closed.
    var lingerTimer: Task<Void, Never>?

    init(url: URL, headers: HTTPHeaders, transport: any WebSocketTransport, authorization: SocketAuthorization,
         options: GraphQLWebSocketClient.Options, inbox: AsyncStream<Event>.Continuation) {
        self.url = url
        self.headers = headers
        self.transport = transport
        self.authorization = authorization
        self.options = options
        self.inbox = inbox
    }

    /// Handles every event until the client is gone, then closes the socket.
    func run(_ events: AsyncStream<Event>) async {
        for await event in events { await handle(event) }
        for subscriber in subscribers.values { subscriber.continuation.finish() }
        subscribers = [:]
        abandonSocket(closing: .normalClosure)
    }

    func handle(_ event: Event) async {
        switch event {
        case .subscribe(let id, let operation, let continuation):
            await start(id, operation, continuation)
        case .ended(let id):
            await end(id)
        case .opened(let stamp, let connection, let credential):
            await opened(connection, credential, stamp)
        case .connectFailed(let stamp, let error, let retryable):
            guard stamp == generation, case .connecting = phase else { return }
            connectFailed(error, retryable: retryable)
        case .received(let stamp, let text):
            guard stamp == generation else { return }
            await received(text)
        case .closed(let stamp, let close):
            guard stamp == generation else { return }
            closed(close)
        case .acknowledgementTimedOut(let stamp):
            guard stamp == generation, case .acknowledging = phase else { return }
            abandonSocket(closing: .connectionAcknowledgementTimeout)
            scheduleReconnect(after: GatewayError(
                .timeout, "the server did not acknowledge the subscription socket's connection_init within "
                    + "\(options.acknowledgementTimeout)"))
        case .keepAliveTick(let stamp):
            guard stamp == generation else { return }
            await keepAliveTick()
        case .lingerEnded(let token):
            guard token == lingerToken, subscribers.isEmpty, case .ready = phase else { return }
            abandonSocket(closing: .normalClosure)
        case .reconnectDue(let stamp), .renewed(let stamp):
            guard stamp == generation, case .waiting = phase else { return }
            connect()
        case .renewFailed(let stamp, let error):
            guard stamp == generation, case .waiting = phase else { return }
            failAll(GatewayError.wrap(error, as: .authentication, "the credential could not be renewed"))
        }
    }

    // MARK: - Subscriptions

    private func start(_ id: UInt64, _ operation: GraphQLWebSocketClient.Operation,
                       _ continuation: AsyncThrowingStream<Data, any Error>.Continuation) async {
        subscribers[id] = Subscriber(operation: operation, continuation: continuation)
        lingerToken += 1
        lingerTimer?.cancel()
        lingerTimer = nil
        switch phase {
        case .idle:
            connect()
        case .ready(let connection):
            subscribers[id]?.sent = true
            await send(TransportWSMessage.subscribe(id: String(id), operation), on: connection)
        case .connecting, .acknowledging, .waiting:
            break
        }
    }

    /// The consumer stopped listening (or the stream was finished here, and the id is gone).
    private func end(_ id: UInt64) async {
        guard let subscriber = subscribers.removeValue(forKey: id) else { return }
        if subscriber.sent, case .ready(let connection) = phase {
            await send(TransportWSMessage.complete(id: String(id)), on: connection)
        }
        releaseIfUnused()
    }

    /// Closes the socket, or lets it linger, once no subscription is left.
    func releaseIfUnused() {
        guard subscribers.isEmpty else { return }
        if case .ready = phase, options.linger > .zero {
            lingerToken += 1
            let token = lingerToken
            let clock = options.clock
            let linger = options.linger
            let inbox = inbox
            lingerTimer?.cancel()
            lingerTimer = Task {
                guard (try? await clock.sleep(for: linger)) != nil else { return }
                inbox.yield(.lingerEnded(token))
            }
            return
        }
        abandonSocket(closing: .normalClosure)
    }

    /// Sends every subscriber not yet sent on the acknowledged socket, in the order started.
    func sendSubscriptions(on connection: any WebSocketConnection) async {
        for id in subscribers.keys.sorted() where subscribers[id]?.sent == false {
            guard let subscriber = subscribers[id] else { continue }
            subscribers[id]?.sent = true
            await send(TransportWSMessage.subscribe(id: String(id), subscriber.operation), on: connection)
        }
    }

    /// Sends `text`; a failure is the reader's to report (as the socket's close).
    func send(_ text: String, on connection: any WebSocketConnection) async {
        try? await connection.send(text)
    }

    /// Ends every subscription with `error` and closes the socket.
    func failAll(_ error: GatewayError) {
        let ending = subscribers.values
        subscribers = [:]
        abandonSocket(closing: .normalClosure)
        failures = 0
        renewedSinceAcknowledgement = false
        for subscriber in ending { subscriber.continuation.finish(throwing: error) }
    }
}
