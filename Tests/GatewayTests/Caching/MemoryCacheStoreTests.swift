import Foundation
import Testing
@testable import Gateway

@Suite struct MemoryCacheStoreTests {
    @Test func theLeastRecentlyUsedEntryIsEvictedFirst() async {
        let cost = CacheFixtures.entry(1, bytes: 1000).byteCost
        let store = MemoryCacheStore(byteLimit: cost * 3, maximumEntryBytes: cost * 3)
        for id in 1...3 { await store.put(CacheFixtures.entry(id, bytes: 1000)) }
        #expect(await store.get(CacheFixtures.key(1), now: CacheFixtures.now) != nil)
        await store.put(CacheFixtures.entry(4, bytes: 1000))
        let kept = await store.list(.all, includeBodies: false).map { $0.entry.key }
        #expect(kept == [CacheFixtures.key(4), CacheFixtures.key(1), CacheFixtures.key(3)])
        let statistics = await store.statistics()
        #expect(statistics.evictions == 1)
        #expect(statistics.bytes == cost * 3)
    }

    @Test func theBytesStayUnderTheLimitWhateverIsWritten() async {
        let store = MemoryCacheStore(byteLimit: 50_000)
        var generator = SystemRandomNumberGenerator()
        for round in 0..<500 {
            let id = Int(generator.next() % 40)
            await store.put(CacheFixtures.entry(id, bytes: Int(generator.next() % 6000)))
            if round % 10 == 0 { await store.remove(.key(CacheFixtures.key(Int(generator.next() % 40)))) }
            let statistics = await store.statistics()
            #expect(statistics.bytes <= 50_000)
            let listed = await store.list(.all, includeBodies: false)
            #expect(listed.reduce(0) { $0 + $1.size } == statistics.bytes)
        }
    }

    @Test func anEntryLargerThanTheMaximumIsNotKeptAndReplacesNothing() async {
        let store = MemoryCacheStore(byteLimit: 100_000, maximumEntryBytes: 5_000)
        #expect(await store.put(CacheFixtures.entry(1, bytes: 100)))
        #expect(await store.put(CacheFixtures.entry(1, bytes: 20_000)) == false)
        #expect(await store.get(CacheFixtures.key(1), now: CacheFixtures.now) == nil)
        #expect(await store.statistics().bytes == 0)
    }

    @Test func concurrentUseKeepsTheAccountsRight() async {
        let store = MemoryCacheStore(byteLimit: 200_000)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<200 {
                        let id = (task * 7 + round) % 60
                        await store.put(CacheFixtures.entry(id, bytes: (round % 9) * 700))
                        _ = await store.get(CacheFixtures.key((id + 3) % 60), now: CacheFixtures.now)
                    }
                }
            }
        }
        let statistics = await store.statistics()
        let listed = await store.list(.all, includeBodies: false)
        #expect(listed.count == statistics.entries)
        #expect(listed.reduce(0) { $0 + $1.size } == statistics.bytes)
        #expect(statistics.bytes <= 200_000)
        #expect(statistics.writes == 1600)
        #expect(statistics.hits + statistics.misses + statistics.staleHits == 1600)
    }
}
