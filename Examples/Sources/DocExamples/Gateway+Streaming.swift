// The examples of Sources/Gateway/Streaming (ResponseStream, ServerSentEvents), Provider+Stream and
// Sources/Gateway/Subscriptions.
import Foundation
import Gateway
import GraphQLLanguage

/// A generated subscription, as `gateway generate` writes one for `subscription OnTick($every: Int!)`.
public struct OnTickSubscription: GraphQLSubscription {
    public static let definition = GraphQLOperationDefinition(
        name: "OnTick", kind: .subscription,
        text: "subscription OnTick($every: Int!) {\n  tick(every: $every)\n}",
        normalizedText: "subscription OnTick($every:Int!){tick(every:$every)}",
        textHash: "<sha256 hex of text>", normalizedTextHash: "<sha256 hex of normalizedText>")
    public var every: Int
    public init(every: Int) { self.every = every }
    public struct Data: Decodable, Sendable {
        public let tick: Int
    }
}

// ResponseStream
func printTicks(_ provider: Provider) async throws {
    let stream = try await provider.stream(Endpoint<Data>.get("ticks"))
    print(stream.status, stream.headers["Content-Type"] ?? "")
    for try await event in stream.serverSentEvents() {
        print(event.type, event.data)
    }
}

// Provider.stream(_:)
func follow(_ provider: Provider) async throws {
    let stream = try await provider.stream(Endpoint<Data>.get("logs/tail"))
    for try await line in stream.lines {
        print(line)
    }
}

// ServerSentEvents
func followPrices(_ provider: Provider) async throws {
    for try await event in provider.serverSentEvents(Endpoint<Data>.get("prices")) {
        print(event.lastEventID, event.data)
    }
}

// Provider.serverSentEvents(_:reconnectionTime:)
func reconnectingEvents(provider: Provider) async throws {
    for try await event in provider.serverSentEvents(Endpoint<Data>.get("prices")) {
        print(event.type, event.data)
    }
}

// SubscriptionProtocol
func subscriptionProtocol(api: URL) {
    let provider = Provider(baseURL: api) { config in
        config.graphQL.subscriptions = .serverSentEvents
    }
    _ = provider
}

// SubscriptionEvents
func printTickResults(_ provider: Provider, _ operations: OperationStore) async throws {
    let onTick = try operations["OnTick"]
    for try await tick in provider.subscribe(onTick, variables: ["every": 1], as: JSONValue.self) {
        print(String(decoding: tick.httpResponse.body, as: UTF8.self))
    }
}

// Provider.subscribe(_:variables:as:options:)
func subscribeToTicks(provider: Provider, operations: OperationStore) async throws {
    let onTick = try operations["OnTick"]
    for try await tick in provider.subscribe(onTick, variables: ["every": 1], as: JSONValue.self) {
        print(tick.data, tick.errors)
    }
}

// Provider.subscribe(_:variables:as:options:) with Swift values
func subscribeWithSwiftValues(provider: Provider, operations: OperationStore) async throws {
    let every = 2
    let onTick = try operations["OnTick"]
    for try await tick in provider.subscribe(onTick, variables: ["every": every], as: JSONValue.self) {
        print(tick.data)
    }
}

// Provider.subscribe(_:options:) for a generated subscription
func subscribeGenerated(provider: Provider) async throws {
    for try await tick in provider.subscribe(OnTickSubscription(every: 1)) {
        print(tick.data.tick)
    }
}

// GraphQLSubscription
func generatedSubscription(provider: Provider) async throws {
    for try await tick in provider.subscribe(OnTickSubscription(every: 1)) {
        print(tick.data)
    }
}
