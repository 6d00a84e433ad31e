import Foundation
import Gateway
import GraphQLLanguage

// The README's "Live queries and streamed bodies" block, inside a function so that it compiles.
enum LiveAndStreams {
    static func tour(provider: Provider, operations: OperationStore) async throws {
        struct User: Decodable, Sendable { let id: Int; let name: String }

        // A live query: the cached value, the network's, then again whenever its cache entry
        // changes (another fetch stores a new answer; an invalidation, a mutation naming its
        // types or a logout removes it and the network is asked again), until the loop ends.
        for try await user in provider.watch(Endpoint<User>.get("users/42")) {
            print(user.value.name, user.cacheOutcome)
        }

        // A body read as it arrives, through the same pipeline (queue, auth with its refresh, retries
        // and validation decide the head; then the body flows for as long as it is read): chunks of
        // `Data`, `lines`, or server-sent events, each line and event bounded in size.
        let stream = try await provider.stream(Endpoint<Data>.get("events"))
        for try await event in stream.serverSentEvents() {
            print(event.type, event.data, event.lastEventID)
        }

        // A GraphQL subscription: one GraphQLResponse per event until the server completes it;
        // ending the loop (or its task) ends the subscription. Multipart HTTP by default
        // (Apollo Router's subscriptionSpec 1.0), or config.graphQL.subscriptions = .serverSentEvents
        // (graphql-sse, distinct connections), or .webSocket (graphql-transport-ws: one socket per endpoint,
        // the token store's credential in connection_init, one refresh after a 4401 close). Each event's
        // `httpResponse.body` is its JSON result.
        let onTick = try operations["OnTick"]
        for try await tick in provider.subscribe(onTick, variables: ["every": 1], as: JSONValue.self) {
            print(tick.data, tick.errors)
        }
    }
}
