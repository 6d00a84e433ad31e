import Foundation
@testable import Gateway
import GatewayTesting
import Testing

/// Clients run on a `ManualClock`, so that no timer of real time (the acknowledgement timeout)
/// fires while the test waits for a thread of a busy pool.
@Suite struct GraphQLWebSocketClientTests {
    let url = URL(string: "ws://127.0.0.1:1/graphql")!

    func makeClient(_ transport: ScriptedWebSocketTransport, provider: Provider? = nil,
                options: GraphQLWebSocketClient.Options = .init(keepAlive: nil, clock: ManualClock()))
        -> GraphQLWebSocketClient {
        GraphQLWebSocketClient(url: url, headers: ["X-App": "tests"], transport: transport, provider: provider,
                               options: options)
    }

    @Test func subscriptionsShareOneSocketAndEndWhenTheServerCompletesThem() async throws {
        let transport = ScriptedWebSocketTransport()
        let client = makeClient(transport)
        let streamA = client.subscribe(.init(query: "subscription { a }"))
        let streamB = client.subscribe(.init(query: "subscription { b }"))
        let first = Task { await collect(streamA) }
        let second = Task { await collect(streamB) }
        let socket = await transport.accept()
        #expect(socket.headers["X-App"] == "tests")
        #expect(await socket.acknowledge() == .text(#"{"type":"connection_init"}"#))
        #expect(await socket.next() == subscribeFrame(1, "subscription { a }"))
        #expect(await socket.next() == subscribeFrame(2, "subscription { b }"))
        socket.serve(#"{"id":"1","type":"next","payload":{"data":{"a":1}}}"#)
        socket.serve(#"{"id":"2","type":"next","payload":{"data":{"b":1}}}"#)
        socket.serve(#"{"id":"1","type":"next","payload":{"data":{"a":2}}}"#)
        socket.serve(#"{"id":"1","type":"complete"}"#)
        socket.serve(#"{"id":"2","type":"complete"}"#)
        let (a, b) = (await first.value, await second.value)
        #expect(a.results == [#"{"data":{"a":1}}"#, #"{"data":{"a":2}}"#] && a.error == nil)
        #expect(b.results == [#"{"data":{"b":1}}"#] && b.error == nil)
        #expect(await socket.next() == .close(.normalClosure))
        #expect(transport.connectCount == 1)
    }

    @Test func connectionInitCarriesTheProvidersBearerToken() async throws {
        let transport = ScriptedWebSocketTransport()
        let provider = Provider(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport()) {
            $0.tokens = MemoryTokenStore(Credential(accessToken: "tok-1", refreshToken: "rt-1"))
        }
        let client = makeClient(transport, provider: provider)
        let consumer = Task { await collect(client.subscribe(.init(query: "subscription { a }"))) }
        let socket = await transport.accept()
        #expect(await socket.acknowledge()
                == .text(#"{"type":"connection_init","payload":{"Authorization":"Bearer tok-1"}}"#))
        #expect(await socket.next() == subscribeFrame(1, "subscription { a }"))
        socket.serve(#"{"id":"1","type":"complete"}"#)
        #expect(await consumer.value.results.isEmpty)
    }

    @Test func theConnectionPayloadCanBeShapedByTheCaller() async throws {
        let transport = ScriptedWebSocketTransport()
        let provider = Provider(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport()) {
            $0.tokens = MemoryTokenStore(Credential(accessToken: "tok-1"))
        }
        let options = GraphQLWebSocketClient.Options(connectionPayload: { credential in
            ["token": .string(credential?.accessToken ?? "none")]
        }, keepAlive: nil, clock: ManualClock())
        let client = makeClient(transport, provider: provider, options: options)
        let consumer = Task { await collect(client.subscribe(.init(query: "subscription { a }"))) }
        let socket = await transport.accept()
        #expect(await socket.acknowledge() == .text(#"{"type":"connection_init","payload":{"token":"tok-1"}}"#))
        _ = await socket.next()
        socket.serve(#"{"id":"1","type":"complete"}"#)
        _ = await consumer.value
    }

    @Test func cancellingTheConsumerSendsCompleteThenClosesTheUnusedSocket() async throws {
        let transport = ScriptedWebSocketTransport()
        let client = makeClient(transport)
        let received = Gate()
        let consumer = Task {
            for try await _ in client.subscribe(.init(query: "subscription { a }")) {
                try await received.wait()
            }
        }
        let socket = await transport.accept()
        await socket.acknowledge()
        #expect(await socket.next() == subscribeFrame(1, "subscription { a }"))
        socket.serve(#"{"id":"1","type":"next","payload":{"data":{"a":1}}}"#)
        await received.waitForArrivals(1)
        consumer.cancel()
        #expect(await socket.next() == .text(#"{"id":"1","type":"complete"}"#))
        #expect(await socket.next() == .close(.normalClosure))
    }

    @Test func answersPingWithPongAndPingsAnIdleServer() async throws {
        let clock = ManualClock()
        let transport = ScriptedWebSocketTransport()
        let client = makeClient(transport, options: .init(acknowledgementTimeout: .seconds(60), keepAlive: .seconds(5),
                                                      clock: clock))
        let consumer = Task { await collect(client.subscribe(.init(query: "subscription { a }"))) }
        let socket = await transport.accept()
        await socket.acknowledge()
        _ = await socket.next()
        socket.serve(#"{"type":"ping","payload":{"at":1}}"#)
        #expect(await socket.next() == .text(#"{"type":"pong"}"#))
        // Sleeps: the acknowledgement timer, then the keep-alive's first interval.
        await clock.waitForSleeps(2)
        clock.advance(by: .seconds(5))   // the ping above counts as heard from the server
        await clock.waitForSleeps(3)
        clock.advance(by: .seconds(5))   // silence: the client pings
        #expect(await socket.next() == .text(#"{"type":"ping"}"#))
        socket.serve(#"{"type":"pong"}"#)
        socket.serve(#"{"id":"1","type":"complete"}"#)
        #expect(await consumer.value.error == nil)
        #expect(await socket.next() == .close(.normalClosure))
    }

    @Test func aServerSilentForTwoKeepAliveIntervalsCountsAsLost() async throws {
        let clock = ManualClock()
        let transport = ScriptedWebSocketTransport()
        let options = GraphQLWebSocketClient.Options(
            acknowledgementTimeout: .seconds(60), keepAlive: .seconds(5),
            reconnection: .init(maxAttempts: 1, initialDelay: .zero, jitter: 0), clock: clock)
        let client = makeClient(transport, options: options)
        let consumer = Task { await collect(client.subscribe(.init(query: "subscription { a }"))) }
        let socket = await transport.accept()
        await socket.acknowledge()
        _ = await socket.next()
        await clock.waitForSleeps(2)
        clock.advance(by: .seconds(5))   // the acknowledgement counts as heard
        await clock.waitForSleeps(3)
        clock.advance(by: .seconds(5))
        #expect(await socket.next() == .text(#"{"type":"ping"}"#))
        await clock.waitForSleeps(4)
        clock.advance(by: .seconds(5))
        #expect(await socket.next() == .close(.goingAway))
        let second = await transport.accept()
        await second.acknowledge()
        #expect(await second.next() == subscribeFrame(1, "subscription { a }"))
        second.serve(#"{"id":"1","type":"complete"}"#)
        #expect(await consumer.value.error == nil)
    }

    @Test func anErrorMessageEndsItsSubscriptionWithTheServersMessages() async throws {
        let transport = ScriptedWebSocketTransport()
        let client = makeClient(transport)
        let consumer = Task { await collect(client.subscribe(.init(query: "subscription { nope }"))) }
        let socket = await transport.accept()
        await socket.acknowledge()
        _ = await socket.next()
        socket.serve(#"{"id":"1","type":"error","payload":[{"message":"Cannot query field 'nope'"}]}"#)
        let failure = try #require(await consumer.value.error as? GatewayError)
        #expect(failure.kind == .graphQLErrors)
        #expect(failure.message.contains("Cannot query field 'nope'"))
    }

    @Test func aMessageOutsideTheProtocolClosesWith4400AndFails() async throws {
        let transport = ScriptedWebSocketTransport()
        let client = makeClient(transport)
        let consumer = Task { await collect(client.subscribe(.init(query: "subscription { a }"))) }
        let socket = await transport.accept()
        await socket.acknowledge()
        _ = await socket.next()
        socket.serve(#"{"type":"data","id":"1"}"#)
        #expect(await socket.next() == .close(.badRequest))
        let failure = try #require(await consumer.value.error as? GatewayError)
        #expect(failure.kind == .invalidResponse)
        #expect(failure.message.contains("unknown type `data`"))
    }

    @Test func aLingeringSocketServesTheNextSubscriptionThenClosesWhenTheLingerEnds() async throws {
        let clock = ManualClock()
        let transport = ScriptedWebSocketTransport()
        let client = makeClient(transport, options: .init(acknowledgementTimeout: .seconds(60), keepAlive: nil,
                                                          linger: .seconds(30), clock: clock))
        let first = Task { await collect(client.subscribe(.init(query: "subscription { a }"))) }
        let socket = await transport.accept()
        await socket.acknowledge()
        _ = await socket.next()
        socket.serve(#"{"id":"1","type":"complete"}"#)
        _ = await first.value
        await clock.waitForSleeps(2)         // the acknowledgement timer, then the linger
        let second = Task { await collect(client.subscribe(.init(query: "subscription { b }"))) }
        #expect(await socket.next() == subscribeFrame(2, "subscription { b }"))
        clock.advance(by: .seconds(30))      // the first linger was called off by the second subscription
        socket.serve(#"{"id":"2","type":"complete"}"#)
        _ = await second.value
        await clock.waitForSleeps(3)
        clock.advance(by: .seconds(30))
        #expect(await socket.next() == .close(.normalClosure))
        #expect(transport.connectCount == 1)
    }
}
