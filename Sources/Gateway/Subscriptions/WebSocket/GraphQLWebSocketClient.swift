import Foundation
import GraphQLLanguage

/// GraphQL subscriptions over one WebSocket, by the GraphQL over WebSocket protocol
/// (subprotocol `graphql-transport-ws`, as graphql-ws, Apollo Server, Strawberry, Hot Chocolate
/// and others serve it).
///
/// - **One socket** carries every subscription of the client, each under its own id. It is
///   opened by the first subscription and closed (`1000`) when the last one ends, at once or
///   after `Options.linger`.
/// - **Connection.** `connection_init` carries the provider's current credential in its
///   payload (`Options.connectionPayload`; `{"Authorization": "Bearer …"}` by default), and
///   the server has `Options.acknowledgementTimeout` to answer `connection_ack`.
/// - **Keep-alive.** The client answers `ping` with `pong`, and pings a server it has heard
///   nothing from for `Options.keepAlive`; two silent intervals count as a lost socket.
/// - **Refused credential.** When the server closes with `4401 Unauthorized` or `4403
///   Forbidden` (or answers the handshake with 401 or 403), the credential is renewed once
///   through the provider's token coordinator (the same single-flight refresh requests use),
///   and a new socket resubscribes every active subscription; a second refusal before the
///   server acknowledges ends them with `.authentication`.
/// - **Lost socket.** A drop, or a close a later attempt may get past (`1000`, `1001`, `1006`,
///   `4408`, `4504`, …), opens a new socket after an exponential back-off with jitter
///   (`Options.reconnection`) and resubscribes every active subscription; results the server
///   published in between are not delivered. Close codes the protocol calls fatal (`4400`,
///   `4406`, `4409`, `4429`, `4500`) end every subscription with an error.
/// - **Ending.** A subscription ends when the server completes it, with a `GatewayError` when
///   it fails, and when its consumer stops iterating (the task ends or is cancelled): the
///   client then sends `complete` for its id.
///
/// The client lives as long as its caller keeps it or any of its subscriptions runs.
///
/// ```swift
/// let client = GraphQLWebSocketClient(url: URL(string: "wss://api.example.com/graphql")!,
///                                     transport: URLSessionWebSocketTransport(),
///                                     provider: provider)
/// let results = client.subscribe(.init(query: "subscription { count(to: 3) }"))
/// for try await result in results {
///     print(String(decoding: result, as: UTF8.self))   // {"data":{"count":1}} …
/// }
/// ```
public final class GraphQLWebSocketClient: Sendable {
    /// What a subscription sends: the `subscribe` message's payload.
    public struct Operation: Sendable, Hashable {
        /// The operation text.
        public var query: String
        /// The operation's name, when the document has several.
        public var operationName: String?
        /// The variables.
        public var variables: JSONObject
        /// The request extensions.
        public var extensions: JSONObject

        /// Creates an operation.
        ///
        /// - Parameters:
        ///   - query: the operation text.
        ///   - operationName: the operation to run, when the document has several.
        ///   - variables: the variables.
        ///   - extensions: the request extensions.
        public init(query: String, operationName: String? = nil, variables: JSONObject = [:],
                    extensions: JSONObject = [:]) {
            self.query = query
            self.operationName = operationName
            self.variables = variables
            self.extensions = extensions
        }
    }

    /// The `ws` or `wss` URL of the GraphQL endpoint.
    public let url: URL
    /// The header fields of the handshake.
    public let headers: HTTPHeaders
    /// How the socket is opened, kept and reopened.
    public let options: Options
    private let inbox: AsyncStream<SocketEngine.Event>.Continuation
    private let counter = Locked<UInt64>(0)

    /// Creates a client; the socket opens with the first subscription.
    ///
    /// - Parameters:
    ///   - url: the GraphQL endpoint as a `ws` or `wss` URL (`http` and `https` are taken as
    ///     `ws` and `wss`).
    ///   - headers: header fields for the handshake.
    ///   - transport: what opens the socket: by default `defaultTransport()`, URLSession's on
    ///     Apple platforms and `SocketWebSocketTransport` (`ws://` only) on Linux.
    ///   - provider: the provider whose session the socket authenticates with and renews;
    ///     `nil` (or a provider without a token store) sends no credential.
    ///   - options: timeouts, keep-alive, reconnection, linger and the `connection_init` payload.
    public convenience init(url: URL, headers: HTTPHeaders = [:],
                            transport: any WebSocketTransport = GraphQLWebSocketClient.defaultTransport(),
                            provider: Provider? = nil, options: Options = Options()) {
        let target = url.webSocketURL ?? url
        self.init(url: target, headers: headers, transport: transport,
                  authorization: provider.map { .session(of: $0.pipeline, keeping: $0, url: target) } ?? .none,
                  options: options)
    }

    /// Creates a client that a provider owns: it authenticates with the provider's session but
    /// does not keep the provider alive (the provider keeps it).
    ///
    /// - Parameters:
    ///   - url: the GraphQL endpoint as a `ws` or `wss` URL.
    ///   - headers: header fields for the handshake.
    ///   - transport: what opens the socket.
    ///   - pipeline: the owning provider's pipeline.
    ///   - options: timeouts, keep-alive, reconnection, linger and the `connection_init` payload.
    convenience init(url: URL, headers: HTTPHeaders, transport: any WebSocketTransport, pipeline: Pipeline,
                     options: Options) {
        let target = url.webSocketURL ?? url
        self.init(url: target, headers: headers, transport: transport,
                  authorization: .session(of: pipeline, keeping: nil, url: target), options: options)
    }

    init(url: URL, headers: HTTPHeaders, transport: any WebSocketTransport, authorization: SocketAuthorization,
         options: Options) {
        self.url = url
        self.headers = headers
        self.options = options
        let (events, inbox) = AsyncStream.makeStream(of: SocketEngine.Event.self)
        self.inbox = inbox
        let engine = SocketEngine(url: url, headers: headers, transport: transport, authorization: authorization,
                                  options: options, inbox: inbox)
        Task { await engine.run(events) }
    }

    deinit { inbox.finish() }

    /// Starts a subscription.
    ///
    /// - Parameter operation: the operation and its variables.
    /// - Returns: each execution result's JSON object (`{"data":…,"errors":…}`), in the order
    ///   the server sent them. The sequence ends when the server completes the subscription,
    ///   and throws `GatewayError` when it fails: `.graphQLErrors` (the server's `error`
    ///   message), `.authentication` and the token coordinator's kinds (the credential was
    ///   refused and could not be renewed), `.transport` or `.timeout` (the socket was lost and
    ///   could not be opened again, or the server closed it for good), `.invalidRequest`,
    ///   `.unsupported` or `.invalidResponse`. Ending the iteration completes the subscription
    ///   on the server.
    public func subscribe(_ operation: Operation) -> AsyncThrowingStream<Data, any Error> {
        let id = counter.withLock { count -> UInt64 in
            count += 1
            return count
        }
        let (results, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
        // The stream keeps the client, and with it the socket, while it runs.
        continuation.onTermination = { _ in self.inbox.yield(.ended(id: id)) }
        if url.webSocketURL == nil {
            continuation.finish(throwing: GatewayError.notWebSocketURL(url))
            return results
        }
        inbox.yield(.subscribe(id: id, operation, continuation))
        return results
    }
}
