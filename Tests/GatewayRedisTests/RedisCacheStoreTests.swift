import Foundation
import Gateway
@testable import GatewayRedis
import GatewayTestSupport
import Testing

@Suite(.requiresRedis) struct RedisCacheStoreTests {
    @Test func anEntryReadsBackAsItWasStoredAndCountsItsHits() async throws {
        let server = try await RedisServer.start()
        let store = Fixture.store(server)
        let entry = Fixture.entry(1, tags: ["Track:1", "type:Track"])
        #expect(try await store.put(entry))
        let read = try #require(try await store.get(entry.key, now: Date()))
        #expect(read == entry)
        #expect(try await store.get(Fixture.key(2), now: Date()) == nil)
        let records = try await store.list(.all, includeBodies: true)
        #expect(records.map(\.entry) == [entry])
        #expect(records.first?.hits == 1)
        let statistics = try await store.statistics()
        #expect(statistics.entries == 1)
        #expect(statistics.hits == 1)
        #expect(statistics.misses == 1)
        #expect(statistics.writes == 1)
        #expect(statistics.byteLimit == 64 << 20)
    }

    @Test func twoStoresWithOnePrefixShareEntriesAndTwoPrefixesDoNot() async throws {
        let server = try await RedisServer.start()
        let first = Fixture.store(server, prefix: "music:")
        let second = Fixture.store(server, prefix: "music:")
        let other = Fixture.store(server, prefix: "video:")
        let entry = Fixture.entry(7)
        #expect(try await first.put(entry))
        #expect(try await second.get(entry.key, now: Date()) == entry)
        #expect(try await other.get(entry.key, now: Date()) == nil)
        #expect(try await second.remove(.all) == 1)
        #expect(try await first.get(entry.key, now: Date()) == nil, "another instance's removal was not seen")
    }

    @Test func aPartitionPurgeRemovesOnlyThatUsersEntries() async throws {
        let server = try await RedisServer.start()
        let store = Fixture.store(server)
        for id in 1...3 { try await store.put(Fixture.entry(id, partition: .subject("alice"))) }
        try await store.put(Fixture.entry(1, partition: .subject("bob")))
        try await store.put(Fixture.entry(1))
        #expect(try await store.remove(.partition(.subject("alice"))) == 3)
        let left = try await store.list(.all, includeBodies: false).map(\.entry.partition)
        #expect(Set(left) == [.subject("bob"), .anonymous])
        let raw = RedisClient(url: server.url, timeout: .seconds(5))
        #expect(try await raw.send(RedisCommand("EXISTS", "test:i:p:=alice")).integerValue == 0)
    }

    @Test func invalidationByOperationTagAndTypeRemovesTheSelectedEntries() async throws {
        let server = try await RedisServer.start()
        let store = Fixture.store(server)
        let cache = ResponseCache(store: store)
        try await store.put(Fixture.entry(1, tags: ["Track:1", "type:Track"]))
        try await store.put(Fixture.entry(2, tags: ["Track:2", "type:Track"]))
        try await store.put(Fixture.entry(3, tags: ["type:Album"], operation: Fixture.albums))
        try await store.put(Fixture.entry(4, operation: Fixture.albums))
        #expect(try await cache.invalidate(.tag("Track:1")) == 1)
        #expect(try await cache.invalidate(.type("Track")) == 1)
        #expect(try await cache.invalidate(.operation("Album")) == 2)
        #expect(try await store.list(.all, includeBodies: false).isEmpty)
    }

    @Test func eachEntryExpiresInRedisStaleRetentionAfterItStopsBeingFresh() async throws {
        let server = try await RedisServer.start()
        let store = Fixture.store(server, staleRetention: .seconds(600))
        let madeAt = ContinuousClock.now
        let fresh = Fixture.entry(1, ttl: 60)
        let expired = Fixture.entry(2, storedAt: Date().addingTimeInterval(-7200), ttl: 60)
        let forever = Fixture.entry(3, ttl: nil)
        for entry in [fresh, expired, forever] { try await store.put(entry) }
        let raw = RedisClient(url: server.url, timeout: .seconds(5))
        let ttls = try await raw.pipeline([fresh, expired, forever].map { RedisCommand("PTTL", "test:e:" + $0.key.hex) })
            .map { $0.integerValue ?? -100 }
        // Each expiry counts down from its write: allow for the time the writes and the reads
        // took (long on a loaded machine), and a second of rounding.
        let (seconds, attoseconds) = (ContinuousClock.now - madeAt).components
        let elapsed = seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1000
        #expect((660_000 - elapsed...661_000).contains(ttls[0]), "\(ttls), \(elapsed) ms elapsed")
        #expect((600_000 - elapsed...600_000).contains(ttls[1]), "\(ttls), \(elapsed) ms elapsed")
        #expect((7 * 86_400_000 - elapsed...7 * 86_400_000).contains(ttls[2]), "\(ttls), \(elapsed) ms elapsed")
        #expect(try await store.get(expired.key, now: Date()) == expired, "an expired entry is kept for revalidation")
    }

    @Test func anEntryWhoseBytesChangedIsAMissWithOneWarningAndIsDeleted() async throws {
        let server = try await RedisServer.start()
        let log = WarningLog()
        let store = Fixture.store(server, log: log)
        let entry = Fixture.entry(1)
        try await store.put(entry)
        let raw = RedisClient(url: server.url, timeout: .seconds(5))
        _ = try await raw.send(RedisCommand("HSET", "test:e:" + entry.key.hex, "body", #"{"data":{"track":null}}"#))
        #expect(try await store.get(entry.key, now: Date()) == nil)
        #expect(log.all.count == 1)
        #expect(log.all.first?.message.contains("no longer matched its checksum") == true)
        #expect(try await raw.send(RedisCommand("EXISTS", "test:e:" + entry.key.hex)).integerValue == 0)
    }

    @Test func anEntryLargerThanTheLimitIsNotStored() async throws {
        let server = try await RedisServer.start()
        let store = Fixture.store(server)
        var entry = Fixture.entry(1)
        entry.body = Data(count: 2 << 20)
        #expect(try await store.put(entry) == false)
        #expect(try await store.get(entry.key, now: Date()) == nil)
    }

    @Test func warnsOnceAtStartWhenRedisMemoryIsUnbounded() async throws {
        let server = try await RedisServer.start([])
        let log = WarningLog()
        let store = Fixture.store(server, log: log)
        try await store.put(Fixture.entry(1))
        _ = try await store.get(Fixture.key(1), now: Date())
        #expect(log.all.count == 1)
        #expect(log.all.first?.message.contains("maxmemory is 0") == true)
        #expect(log.all.first?.message.contains("volatile-lru") == true)
    }

    @Test func saysNothingAboutMemoryWhenItIsBoundedWithAnLRUPolicy() async throws {
        let server = try await RedisServer.start()
        let log = WarningLog()
        let store = Fixture.store(server, log: log)
        try await store.put(Fixture.entry(1))
        #expect(log.all.isEmpty)
        #expect(store.byteLimit == 64 << 20)
    }
}
