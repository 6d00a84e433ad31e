import Foundation

/// The events of a GraphQL subscription, as `Provider.subscribe` returns them: one
/// `GraphQLResponse` per event, in the order the server sent them, decoded as `fetch` decodes a
/// response.
///
/// The sequence ends when the server completes the subscription, and throws when it fails (an
/// event with errors and no data is thrown as `fetch` throws it, which ends the sequence).
/// Ending the task that iterates it, or leaving the loop, ends the subscription: the connection
/// is closed. Each event's `httpResponse.body` is that event's execution result as the server
/// sent it (a JSON object with `data`, `errors`, `extensions`), and its `request` the request
/// that opened the subscription.
///
/// Events the consumer has not read yet wait in memory, at most
/// `GraphQLSettings.subscriptionBufferLimit` of them (10,000 by default). When the server sends
/// one more, the subscription ends (its connection is closed) and, after the events held, the
/// sequence throws `.consumerBehind`: read faster (hand slow work for each event to another task)
/// or raise the limit.
///
/// ```swift
/// func printTickResults(_ provider: Provider, _ operations: OperationStore) async throws {
///     let onTick = try operations["OnTick"]
///     for try await tick in provider.subscribe(onTick, variables: ["every": 1], as: JSONValue.self) {
///         print(String(decoding: tick.httpResponse.body, as: UTF8.self))
///     }
/// }
/// ```
public struct SubscriptionEvents<Value: Sendable>: AsyncSequence, Sendable {
    public typealias Element = GraphQLResponse<Value>

    private let events: AsyncThrowingStream<GraphQLResponse<Value>, any Error>

    init(_ events: AsyncThrowingStream<GraphQLResponse<Value>, any Error>) {
        self.events = events
    }

    /// A sequence that fails at once with `error` (variables that do not fit, say): nothing is sent.
    init(failing error: any Error) {
        events = AsyncThrowingStream { $0.finish(throwing: error) }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: events.makeAsyncIterator())
    }

    /// Reads the events in order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<GraphQLResponse<Value>, any Error>.Iterator

        /// The next event, or `nil` once the server has completed the subscription.
        public mutating func next() async throws -> GraphQLResponse<Value>? {
            try await base.next(isolation: #isolation)
        }
    }
}
