import Foundation
import Gateway
@testable import GatewayRedis
import GatewayTestSupport
import Testing

/// One instance's removals reach the memory layer of every other instance on the same Redis.
@Suite(.requiresRedis, .timeLimit(.minutes(3))) struct RedisRemovalNoticeTests {
    /// One instance: a memory layer in front of its own store on the shared Redis.
    struct Instance {
        let store: RedisCacheStore
        let layered: LayeredCacheStore
        let removals = RemovalLog()

        init(_ server: RedisServer) async throws {
            store = Fixture.store(server)
            layered = LayeredCacheStore(back: store)
            store.observeRemovals(removals.observer)
            #expect(await store.listen(timeout: .seconds(10)))
        }
    }

    @Test func aPurgeOnOneInstanceEmptiesThatPartitionFromTheOthersMemory() async throws {
        let server = try await RedisServer.start()
        let first = try await Instance(server), second = try await Instance(server)
        let alice = Fixture.entry(1, partition: .subject("alice")), bob = Fixture.entry(1, partition: .subject("bob"))
        #expect(try await first.layered.put(alice))
        #expect(try await first.layered.put(bob))
        #expect(try await second.layered.get(alice.key, now: Date()) == alice)
        #expect(try await second.layered.get(bob.key, now: Date()) == bob)
        #expect(second.layered.memory.getNow(alice.key, now: Date()) == alice)
        let heard = second.removals.heard.count

        #expect(try await first.layered.remove(.partition(.subject("alice"))) == 1)
        await second.removals.waitFor(heard + 1)
        #expect(second.removals.heard.last == .removed(.partition(.subject("alice"))))
        #expect(second.layered.memory.getNow(alice.key, now: Date()) == nil)
        #expect(second.layered.memory.getNow(bob.key, now: Date()) == bob)
        #expect(try await second.layered.get(alice.key, now: Date()) == nil)
    }

    @Test func anInstanceDoesNotHearItsOwnRemovals() async throws {
        let server = try await RedisServer.start()
        let first = try await Instance(server), second = try await Instance(server)
        let heardByFirst = first.removals.heard.count, heardBySecond = second.removals.heard.count
        try await first.layered.remove(.tag("Track:1"))
        await second.removals.waitFor(heardBySecond + 1)
        // The second heard it; a removal of the second's, heard by the first, shows the first
        // heard nothing in between.
        try await second.layered.remove(.tag("Track:2"))
        await first.removals.waitFor(heardByFirst + 1)
        #expect(Array(first.removals.heard.dropFirst(heardByFirst)) == [.removed(.tag("Track:2"))])
    }

    @Test func aSubscriberThatReconnectsEmptiesTheMemoryLayer() async throws {
        let server = try await RedisServer.start()
        let instance = try await Instance(server)
        let entry = Fixture.entry(1)
        #expect(try await instance.layered.put(entry))
        #expect(instance.layered.memory.getNow(entry.key, now: Date()) == entry)
        let heard = instance.removals.heard.count

        let raw = RedisClient(url: server.url, timeout: .seconds(5))
        #expect(try await raw.send(RedisCommand("CLIENT", "KILL", "TYPE", "pubsub")).integerValue == 1)
        await instance.removals.waitFor(heard + 1)
        #expect(instance.removals.heard.last == .possiblyMissed)
        #expect(instance.layered.memory.getNow(entry.key, now: Date()) == nil)
        #expect(try await instance.layered.get(entry.key, now: Date()) == entry, "Redis still holds it")
    }
}
