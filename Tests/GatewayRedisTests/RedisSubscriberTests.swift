import Foundation
import Gateway
@testable import GatewayRedis
import GatewayTestSupport
import Testing

/// The subscription's keep-alive: an idle connection that answers stays, one whose server
/// stops answering (the socket still open) is dropped and made again once the server answers.
@Suite(.requiresRedis, .timeLimit(.minutes(2))) struct RedisSubscriberTests {
    @Test func anIdleSubscriptionAnswersItsKeepAlivesAndStays() async throws {
        let server = try await RedisServer.start()
        let events = SubscriberEvents()
        let subscriber = RedisSubscriber(url: server.url, channels: ["keep-alive"], connectTimeout: .seconds(5),
                                         keepAlive: .milliseconds(20), handler: events.record)
        defer { subscriber.close() }
        subscriber.start()

        #expect(await events.waitUntil { $0.keptAlive >= 3 })
        let raw = RedisClient(url: server.url, timeout: .seconds(5))
        #expect(try await raw.send(RedisCommand("PUBLISH", "keep-alive", "still here")).integerValue == 1)
        #expect(await events.waitUntil { !$0.messages.isEmpty })

        let seen = events.seen
        #expect(seen.subscriptions == [false], "subscribed once, never again")
        #expect(seen.drops == 0)
        #expect(seen.messages == ["still here"])
    }

    @Test func aServerThatStopsAnsweringIsDroppedAndSubscribedToAgainWhenItAnswers() async throws {
        let server = try await RedisServer.start()
        let events = SubscriberEvents()
        let subscriber = RedisSubscriber(url: server.url, channels: ["keep-alive"], connectTimeout: .seconds(1),
                                         keepAlive: .milliseconds(100), handler: events.record)
        defer { subscriber.close() }
        subscriber.start()
        #expect(await events.waitUntil { $0.subscriptions.count == 1 })

        // The process is frozen, its sockets open: only the unanswered PING tells.
        server.pause()
        #expect(await events.waitUntil { $0.drops == 1 })
        #expect(!subscriber.isSubscribed)
        server.resume()
        #expect(await events.waitUntil { $0.subscriptions.count == 2 })

        #expect(events.seen.subscriptions == [false, true], "the second subscription says it followed a drop")
        #expect(await subscriber.waitUntilSubscribed(timeout: .seconds(30)))
    }
}

/// What a subscriber told its handler; a test waits until it has seen enough.
private final class SubscriberEvents: Sendable {
    struct Seen {
        /// Each `.subscribed`'s `reconnected`.
        var subscriptions: [Bool] = []
        var drops = 0
        var keptAlive = 0
        var messages: [String] = []
    }

    private struct State {
        var seen = Seen()
        var nextWaiter = 0
        var waiters: [Int: (condition: @Sendable (Seen) -> Bool, continuation: CheckedContinuation<Bool, Never>)] = [:]
    }

    private let state = Locked(State())

    var seen: Seen { state.withLock { $0.seen } }

    func record(_ event: RedisSubscriber.Event) {
        let ready = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            switch event {
            case .subscribed(let reconnected): state.seen.subscriptions.append(reconnected)
            case .dropped: state.seen.drops += 1
            case .keptAlive: state.seen.keptAlive += 1
            case .message(_, let payload): state.seen.messages.append(String(decoding: payload, as: UTF8.self))
            }
            let seen = state.seen
            let ready = state.waiters.filter { $0.value.condition(seen) }
            for id in ready.keys { state.waiters[id] = nil }
            return ready.values.map(\.continuation)
        }
        for waiter in ready { waiter.resume(returning: true) }
    }

    /// Returns `true` once what was seen satisfies `condition`, or `false` when the waiting
    /// task is cancelled first (the suite's time limit).
    func waitUntil(_ condition: @escaping @Sendable (Seen) -> Bool) async -> Bool {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let ready = state.withLock { state -> Bool? in
                    if condition(state.seen) { return true }
                    if Task.isCancelled { return false }
                    state.waiters[id] = (condition, continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.continuation.resume(returning: false)
        }
    }
}
