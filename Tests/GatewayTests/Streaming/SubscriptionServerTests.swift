import Foundation
import Gateway
import GatewayTestSupport
import GraphQLLanguage
import Testing

/// `Provider.subscribe` against a GraphQL server nobody here wrote: strawberry-graphql on
/// uvicorn (see `subscription_server.py`), over each HTTP subscription protocol.
@Suite(.requires(.strawberry) { try await SubscriptionPeer.isRunning() }, .timeLimit(.minutes(2)))
struct SubscriptionServerTests {
    static let count = try? GraphQLOperation("subscription Count($to: Int!) { count(to: $to) }")
    static let hold = try? GraphQLOperation("subscription Hold($name: String!) { hold(name: $name) }")
    static let ended = try? GraphQLOperation("query Ended($name: String!) { ended(name: $name) }")

    struct Count: Decodable, Sendable { let count: Int }
    struct Hold: Decodable, Sendable { let hold: Int }
    struct Ended: Decodable, Sendable { let ended: Bool }

    static func provider(_ subscriptions: SubscriptionProtocol) async throws -> Provider {
        let peer = try #require(try await SubscriptionPeer.shared.value)
        return Provider(baseURL: try #require(URL(string: peer.baseURL)), transport: URLSessionTransport()) { config in
            config.graphQL.subscriptions = subscriptions
            config.deadline = nil  // it would measure the suite's queue (see makeProvider)
        }
    }

    @Test(arguments: [SubscriptionProtocol.multipart, .serverSentEvents])
    func aThousandEventsArriveInOrder(over subscriptions: SubscriptionProtocol) async throws {
        let provider = try await Self.provider(subscriptions)

        var numbers: [Int] = []
        for try await event in provider.subscribe(try #require(Self.count), variables: ["to": 1000], as: Count.self) {
            #expect(event.errors.isEmpty)
            numbers.append(event.data.count)
        }

        #expect(numbers == Array(1...1000))
    }

    @Test(arguments: [SubscriptionProtocol.multipart, .serverSentEvents])
    func eachEventCarriesItsResultAsTheServerSentIt(over subscriptions: SubscriptionProtocol) async throws {
        let provider = try await Self.provider(subscriptions)

        var results: [String] = []
        for try await event in provider.subscribe(try #require(Self.count), variables: ["to": 2], as: JSONValue.self) {
            results.append(String(decoding: event.httpResponse.body, as: UTF8.self))
            #expect(event.request?.headers["Content-Type"] == "application/json")
        }

        #expect(results == [#"{"data":{"count":1}}"#, #"{"data":{"count":2}}"#])
    }

    @Test(arguments: [SubscriptionProtocol.multipart, .serverSentEvents])
    func leavingTheLoopEndsTheSubscriptionOnTheServer(over subscriptions: SubscriptionProtocol) async throws {
        let provider = try await Self.provider(subscriptions)
        let name = "leave-\(subscriptions)-\(UUID().uuidString)"

        for try await event in provider.subscribe(try #require(Self.hold), variables: ["name": name], as: Hold.self) {
            #expect(event.data.hold == 1)
            break
        }

        let ended = try await provider.fetch(try #require(Self.ended), variables: ["name": name], as: Ended.self)
        #expect(ended.data.ended)
    }

    @Test(arguments: [SubscriptionProtocol.multipart, .serverSentEvents])
    func cancellingTheConsumerEndsTheSubscriptionOnTheServer(over subscriptions: SubscriptionProtocol) async throws {
        let provider = try await Self.provider(subscriptions)
        let name = "cancel-\(subscriptions)-\(UUID().uuidString)"
        let hold = try #require(Self.hold)
        let (firstEvent, arrived) = AsyncStream.makeStream(of: Int.self)

        let consumer = Task {
            for try await event in provider.subscribe(hold, variables: ["name": name], as: Hold.self) {
                arrived.yield(event.data.hold)
            }
        }
        var events = firstEvent.makeAsyncIterator()
        #expect(await events.next() == 1)
        consumer.cancel()

        // The server answers once the subscription's generator has ended (at most 20 s later).
        let ended = try await provider.fetch(try #require(Self.ended), variables: ["name": name], as: Ended.self)
        #expect(ended.data.ended)
        // The sequence ends, or throws CancellationError, when its consumer is cancelled.
        if case .failure(let error) = await consumer.result { #expect(error is CancellationError) }
    }
}
