import Foundation
@testable import Gateway
import GatewayTesting
import Testing

/// Every client runs on a `ManualClock`, so that no timer of real time (the acknowledgement
/// timeout, a back-off) fires while the test waits for a thread of a busy pool.
@Suite struct GraphQLWebSocketRecoveryTests {
    let url = URL(string: "ws://127.0.0.1:1/graphql")!

    /// A provider signed in as `old`, whose refresh endpoint answers `new`.
    func signedInProvider(_ stub: StubTransport) -> Provider {
        stub.on(.post, "auth/refresh", reply: .json(#"{"access_token":"new","refresh_token":"rt-2","expires_in":3600}"#))
        return Provider(baseURL: URL(string: "https://api.example.com")!, transport: stub) {
            $0.tokens = MemoryTokenStore(Credential(accessToken: "old", refreshToken: "rt-1", subject: "user-1"))
            $0.authenticator = RefreshTokenAuthenticator(path: "auth/refresh")
        }
    }

    @Test(arguments: [WebSocketCloseCode.unauthorized, .forbidden])
    func aRefusedCredentialIsRefreshedOnceAndTheSubscriptionResumes(code: WebSocketCloseCode) async throws {
        let stub = StubTransport()
        let transport = ScriptedWebSocketTransport()
        let client = GraphQLWebSocketClient(url: url, transport: transport, provider: signedInProvider(stub),
                                            options: .init(keepAlive: nil, clock: ManualClock()))
        let consumer = Task { await collect(client.subscribe(.init(query: "subscription { a }"))) }
        let first = await transport.accept()
        #expect(await first.acknowledge() == .text(#"{"type":"connection_init","payload":{"Authorization":"Bearer old"}}"#))
        #expect(await first.next() == subscribeFrame(1, "subscription { a }"))
        first.serve(#"{"id":"1","type":"next","payload":{"data":{"a":1}}}"#)
        first.serve(#"{"id":"1","type":"next","payload":{"data":{"a":2}}}"#)
        first.serverClose(code, reason: "token expired")

        let second = await transport.accept()
        #expect(await second.acknowledge() == .text(#"{"type":"connection_init","payload":{"Authorization":"Bearer new"}}"#))
        #expect(await second.next() == subscribeFrame(1, "subscription { a }"))
        second.serve(#"{"id":"1","type":"next","payload":{"data":{"a":3}}}"#)
        second.serve(#"{"id":"1","type":"complete"}"#)
        let outcome = await consumer.value
        #expect(outcome.results == [#"{"data":{"a":1}}"#, #"{"data":{"a":2}}"#, #"{"data":{"a":3}}"#])
        #expect(outcome.error == nil)
        #expect(stub.refreshes.count == 1)
        #expect(transport.connectCount == 2)
    }

    @Test func aSecondRefusalBeforeAnAcknowledgementEndsWithAuthentication() async throws {
        let stub = StubTransport()
        let transport = ScriptedWebSocketTransport()
        let client = GraphQLWebSocketClient(url: url, transport: transport, provider: signedInProvider(stub),
                                            options: .init(keepAlive: nil, clock: ManualClock()))
        let consumer = Task { await collect(client.subscribe(.init(query: "subscription { a }"))) }
        let first = await transport.accept()
        _ = await first.next()
        first.serverClose(.unauthorized)
        let second = await transport.accept()
        _ = await second.next()
        second.serverClose(.unauthorized)
        let failure = try #require(await consumer.value.error as? GatewayError)
        #expect(failure.kind == .authentication)
        #expect(failure.message.contains("again"))
        #expect(stub.refreshes.count == 1)
    }

    @Test func withoutATokenStoreARefusalEndsWithAuthentication() async throws {
        let transport = ScriptedWebSocketTransport()
        let client = GraphQLWebSocketClient(url: url, transport: transport, options: .init(keepAlive: nil, clock: ManualClock()))
        let consumer = Task { await collect(client.subscribe(.init(query: "subscription { a }"))) }
        let socket = await transport.accept()
        _ = await socket.next()
        socket.serverClose(.unauthorized)
        let failure = try #require(await consumer.value.error as? GatewayError)
        #expect(failure.kind == .authentication)
        #expect(failure.fix?.contains("token store") == true)
    }

    @Test func aDroppedSocketIsOpenedAgainAfterBackOffAndResubscribes() async throws {
        let clock = ManualClock()
        let transport = ScriptedWebSocketTransport()
        let options = GraphQLWebSocketClient.Options(
            acknowledgementTimeout: .seconds(60), keepAlive: nil,
            reconnection: .init(maxAttempts: 3, initialDelay: .seconds(1), maxDelay: .seconds(10), jitter: 0),
            clock: clock)
        let client = GraphQLWebSocketClient(url: url, transport: transport, options: options)
        let stream = client.subscribe(.init(query: "subscription { a }"))
        let consumer = Task { await collect(stream) }
        let first = await transport.accept()
        await first.acknowledge()
        _ = await first.next()
        first.serve(#"{"id":"1","type":"next","payload":{"data":{"a":1}}}"#)
        transport.failNext(GatewayError(.transport, "connection refused"))
        first.serverClose(.abnormalClosure)
        await clock.waitForSleeps(2)        // the acknowledgement timer, then the first back-off
        clock.advance(by: .seconds(1))      // attempt 1 fails
        await clock.waitForSleeps(3)
        clock.advance(by: .seconds(2))      // attempt 2 opens
        let second = await transport.accept()
        await second.acknowledge()
        #expect(await second.next() == subscribeFrame(1, "subscription { a }"))
        second.serve(#"{"id":"1","type":"next","payload":{"data":{"a":2}}}"#)
        second.serve(#"{"id":"1","type":"complete"}"#)
        let outcome = await consumer.value
        #expect(outcome.results == [#"{"data":{"a":1}}"#, #"{"data":{"a":2}}"#])
        #expect(outcome.error == nil)
        #expect(clock.sleeps.filter { $0 != .seconds(60) } == [.seconds(1), .seconds(2)])
    }

    @Test func afterTheLastAttemptFailsTheSubscriptionEndsWithTheTransportError() async throws {
        let clock = ManualClock(advancesOnSleep: true)
        let transport = ScriptedWebSocketTransport(failures: Array(repeating: GatewayError(.transport, "refused"),
                                                                   count: 4))
        let options = GraphQLWebSocketClient.Options(
            keepAlive: nil, reconnection: .init(maxAttempts: 3, initialDelay: .seconds(1), jitter: 0), clock: clock)
        let client = GraphQLWebSocketClient(url: url, transport: transport, options: options)
        let outcome = await collect(client.subscribe(.init(query: "subscription { a }")))
        let failure = try #require(outcome.error as? GatewayError)
        #expect(failure.kind == .transport)
        #expect(failure.message.contains("3 attempts"))
        #expect(transport.connectCount == 4)
        #expect(clock.sleeps == [.seconds(1), .seconds(2), .seconds(4)])
    }

    @Test func aFatalCloseCodeEndsEverySubscriptionWithoutReconnecting() async throws {
        let transport = ScriptedWebSocketTransport()
        let client = GraphQLWebSocketClient(url: url, transport: transport, options: .init(keepAlive: nil, clock: ManualClock()))
        let consumer = Task { await collect(client.subscribe(.init(query: "subscription { a }"))) }
        let socket = await transport.accept()
        await socket.acknowledge()
        _ = await socket.next()
        socket.serverClose(.subscriberAlreadyExists, reason: "Subscriber for 1 already exists")
        let failure = try #require(await consumer.value.error as? GatewayError)
        #expect(failure.message.contains("4409 Subscriber for 1 already exists"))
        #expect(transport.connectCount == 1)
    }

    @Test func backOffGrowsExponentiallyUpToTheLimitLessItsJitter() {
        let policy = GraphQLWebSocketClient.Reconnection(initialDelay: .seconds(1), maxDelay: .seconds(5), jitter: 0.5)
        #expect(policy.delay(before: 1, random: 0) == .seconds(1))
        #expect(policy.delay(before: 3, random: 0) == .seconds(4))
        #expect(policy.delay(before: 9, random: 0) == .seconds(5))
        #expect(policy.delay(before: 3, random: 1) == .seconds(2))
        #expect(policy.delay(before: 10_000, random: 0.5) == .milliseconds(3750))
    }
}
