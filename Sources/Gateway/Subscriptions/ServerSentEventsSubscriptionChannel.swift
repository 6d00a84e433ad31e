import Foundation

/// Subscriptions over server-sent events, the graphql-sse protocol's "distinct connections"
/// mode (`SubscriptionProtocol.serverSentEvents`): one POST asking for `text/event-stream` per
/// subscription; each `next` event's data is an execution result, `complete` ends the
/// subscription, comments (heartbeats) and other events are skipped. A stream that ends
/// without `complete` is an error: the connection was lost.
struct ServerSentEventsSubscriptionChannel: SubscriptionChannel {
    let http: HTTPSubscriptionChannel

    init(pipeline: Pipeline) {
        http = HTTPSubscriptionChannel(pipeline: pipeline, accept: "text/event-stream")
    }

    func open(_ subscription: SubscriptionOpening) -> AsyncThrowingStream<Data, any Error> {
        http.open(subscription) { response, yield in
            for try await event in response.serverSentEvents() {
                switch event.type {
                case "next": yield(Data(event.data.utf8))
                case "complete": return
                default: continue
                }
            }
            throw GatewayError(
                .transport, "the event stream of \(subscription.name) ended before its complete event",
                fix: "the connection was lost or the server stopped: subscribe again")
        }
    }
}
