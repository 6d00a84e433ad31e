import Foundation
import GraphQLLanguage

/// `Provider.subscribe` over graphql-transport-ws: one `GraphQLWebSocketClient` (one shared
/// socket) per endpoint URL and header fields, made on first use with the provider's
/// `webSocketTransport` and `webSocket` options.
///
/// The provider owns it; its clients authenticate through the provider's pipeline without
/// keeping the provider, so releasing the provider closes the sockets once their subscriptions
/// have ended.
final class WebSocketSubscriptions: SubscriptionChannel {
    private struct Key: Hashable {
        let url: URL
        let headers: HTTPHeaders
    }

    private let pipeline: Pipeline
    private let clients = Locked<[Key: GraphQLWebSocketClient]>([:])

    init(pipeline: Pipeline) {
        self.pipeline = pipeline
    }

    func open(_ subscription: SubscriptionOpening) -> AsyncThrowingStream<Data, any Error> {
        var headers = pipeline.configuration.headers
        headers.merge(subscription.headers)
        let client = client(url: subscription.url, headers: headers)
        return client.subscribe(GraphQLWebSocketClient.Operation(
            query: subscription.query, operationName: subscription.operationName,
            variables: subscription.variables, extensions: subscription.extensions))
    }

    /// The endpoint's client, made the first time it is asked for.
    private func client(url: URL, headers: HTTPHeaders) -> GraphQLWebSocketClient {
        let key = Key(url: url, headers: headers)
        return clients.withLock { clients in
            if let client = clients[key] { return client }
            let configuration = pipeline.configuration
            let client = GraphQLWebSocketClient(url: url, headers: headers, transport: configuration.webSocketTransport,
                                                pipeline: pipeline, options: configuration.webSocket)
            clients[key] = client
            return client
        }
    }
}
