import Foundation
import GatewayTesting
import Testing
@testable import Gateway

@Suite struct LayeredCacheStoreTests {
    @Test func aFailedBackWriteLeavesNothingInMemory() async throws {
        let back = ScriptedBackStore()
        let layered = LayeredCacheStore(memory: MemoryCacheStore(), back: back)
        try await layered.put(CacheFixtures.entry(1, body: "old"))
        #expect(layered.memory.peekNow(CacheFixtures.key(1).digest)?.body == Data("old".utf8))
        back.failWrites.withLock { $0 = true }
        await #expect(throws: GatewayError.self) { try await layered.put(CacheFixtures.entry(1, body: "new")) }
        #expect(layered.memory.peekNow(CacheFixtures.key(1).digest) == nil)
        let served = try await layered.get(CacheFixtures.key(1), now: CacheFixtures.now)
        #expect(served?.body == Data("old".utf8))
    }

    @Test func aFailedBackRemovalStillEmptiesMemory() async throws {
        let back = ScriptedBackStore()
        let layered = LayeredCacheStore(memory: MemoryCacheStore(), back: back)
        try await layered.put(CacheFixtures.entry(1, partition: .subject("alice")))
        back.failWrites.withLock { $0 = true }
        await #expect(throws: GatewayError.self) { try await layered.remove(.partition(.subject("alice"))) }
        #expect(await layered.memory.statistics().entries == 0)
    }

    @Test func aMemoryHitIsCountedByTheBackStore() async throws {
        let back = ScriptedBackStore()
        let layered = LayeredCacheStore(memory: MemoryCacheStore(), back: back)
        try await layered.put(CacheFixtures.entry(1))
        #expect(try await layered.get(CacheFixtures.key(1), now: CacheFixtures.now) != nil)
        #expect(try await layered.get(CacheFixtures.key(1), now: CacheFixtures.now.addingTimeInterval(120)) != nil)
        let statistics = try await layered.statistics()
        #expect(statistics.hits == 1)
        #expect(statistics.staleHits == 1)
        #expect(statistics.misses == 0)
        #expect(await back.inner.statistics().hits == 1)
    }

    @Test func whatTheBackStoreFindsIsCopiedIntoMemory() async throws {
        let back = ScriptedBackStore()
        let layered = LayeredCacheStore(memory: MemoryCacheStore(), back: back)
        _ = try await back.put(CacheFixtures.entry(1))
        #expect(layered.memory.peekNow(CacheFixtures.key(1).digest) == nil)
        #expect(try await layered.get(CacheFixtures.key(1), now: CacheFixtures.now) != nil)
        #expect(layered.memory.peekNow(CacheFixtures.key(1).digest) != nil)
    }

    @Test func aReadOverlappingAWriteDoesNotBringTheOldEntryBack() async throws {
        let back = ScriptedBackStore()
        let layered = LayeredCacheStore(memory: MemoryCacheStore(), back: back)
        _ = try await back.put(CacheFixtures.entry(1, body: "old"))
        let gate = Gate()
        back.getGate.withLock { $0 = gate }
        let read = Task { try await layered.get(CacheFixtures.key(1), now: CacheFixtures.now) }
        await gate.waitForArrivals(1)
        try await layered.put(CacheFixtures.entry(1, body: "new"))
        gate.open()
        #expect(try await read.value?.body == Data("old".utf8))
        let inMemory = layered.memory.peekNow(CacheFixtures.key(1).digest)
        #expect(inMemory == nil || inMemory?.body == Data("new".utf8))
        #expect(try await layered.get(CacheFixtures.key(1), now: CacheFixtures.now)?.body == Data("new".utf8))
    }

    @Test func overlappingWritesNeverLeaveMemoryDisagreeingWithTheBackStore() async throws {
        let back = ScriptedBackStore()
        let layered = LayeredCacheStore(memory: MemoryCacheStore(), back: back)
        let gate = Gate()
        back.putGate.withLock { $0 = gate }
        let first = Task { try await layered.put(CacheFixtures.entry(1, body: "first")) }
        await gate.waitForArrivals(1)
        try await layered.put(CacheFixtures.entry(1, body: "second"))
        gate.open()
        _ = try await first.value
        // The back store took "first" then "second"; the first write reaches memory last.
        let inBack = back.inner.peekNow(CacheFixtures.key(1).digest)
        let inMemory = layered.memory.peekNow(CacheFixtures.key(1).digest)
        #expect(inBack?.body == Data("second".utf8))
        #expect(inMemory == nil || inMemory == inBack)
        #expect(try await layered.get(CacheFixtures.key(1), now: CacheFixtures.now)?.body == Data("second".utf8))
    }
}
