import Foundation
@testable import Gateway
import GatewayLoopback
import GatewayTesting
import Testing

/// A subscription whose consumer falls behind the server: at most
/// `GraphQLSettings.subscriptionBufferLimit` events wait for it, then the subscription ends with
/// `.consumerBehind`.
@Suite(.timeLimit(.minutes(2))) struct SubscriptionBufferTests {
    /// A multipart subscription that sends ticks for as long as the client listens; `closed` opens
    /// when the client has closed the connection.
    static func endlessTicks(closed: LoopbackGate) -> LoopbackResponse {
        let sent = Locked(0)
        var response = LoopbackResponse(headers: ["Content-Type": SubscriptionTests.multipartType])
        response.stream = LoopbackBodyStream(
            next: {
                let tick = sent.withLock { count -> Int in
                    count += 1
                    return count
                }
                if tick == 1 { return Data("\r\n--graphql\r\nContent-Type: application/json\r\n\r\n{}\r\n".utf8) }
                guard tick < 1_000_000 else { return nil }
                let part = #"{"payload":{"data":{"tick":\#(tick - 1)}}}"#
                return Data("--graphql\r\nContent-Type: application/json\r\n\r\n\(part)\r\n".utf8)
            },
            ended: { clientClosed in if clientClosed { closed.open() } })
        return response
    }

    @Test func aConsumerThatFallsBehindGetsTheEventsHeldThenAClearError() async throws {
        let closed = LoopbackGate()
        let server = try LoopbackServer { _ in Self.endlessTicks(closed: closed) }
        defer { server.shutdown() }
        let provider = try SubscriptionTests.provider(server) { config in
            config.graphQL.subscriptionBufferLimit = 5
        }
        let events = provider.subscribe(try #require(SubscriptionTests.ticks), as: SubscriptionTests.Tick.self)

        // The consumer reads nothing until the subscription has ended and its connection closed.
        await closed.wait()
        var ticks: [Int] = []
        let failure = await #expect(throws: GatewayError.self) {
            for try await event in events { ticks.append(event.data.tick) }
        }

        #expect(ticks == [1, 2, 3, 4, 5])
        #expect(failure?.kind == .consumerBehind)
        #expect(failure?.message.contains("fell behind by 5 events") == true)
        #expect(failure?.fix?.contains("subscriptionBufferLimit") == true)
    }
}
