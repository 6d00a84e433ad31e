/// How `Provider.subscribe` carries a GraphQL subscription: `GraphQLSettings.subscriptions`.
///
/// ```swift
/// let provider = Provider(baseURL: api) { config in
///     config.graphQL.subscriptions = .serverSentEvents
/// }
/// ```
public enum SubscriptionProtocol: Sendable, Hashable, CustomStringConvertible {
    /// Multipart HTTP, as Apollo Router serves it: one POST with
    /// `Accept: multipart/mixed;subscriptionSpec="1.0"`, each event a part
    /// `{"payload": {…result…}}`, heartbeats `{}` skipped, and a part with `"payload": null` and
    /// `errors` ending the subscription with those errors.
    case multipart
    /// Server-sent events, the graphql-sse protocol's "distinct connections" mode: one POST with
    /// `Accept: text/event-stream` per subscription, each `next` event a result, `complete` the end.
    case serverSentEvents
    /// The GraphQL over WebSocket protocol (subprotocol `graphql-transport-ws`): one socket per
    /// endpoint shared by every subscription of the provider, opened by
    /// `Configuration.webSocketTransport`, its `connection_init` carrying the token store's
    /// credential (`Configuration.webSocket`), renewed once after a `4401`/`4403` close; see
    /// `GraphQLWebSocketClient`.
    case webSocket

    /// `multipart` or `server-sent events`.
    public var description: String {
        switch self {
        case .multipart: "multipart"
        case .serverSentEvents: "server-sent events"
        case .webSocket: "graphql-transport-ws"
        }
    }
}
