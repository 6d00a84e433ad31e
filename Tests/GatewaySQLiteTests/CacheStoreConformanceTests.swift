import Foundation
import Gateway
import GatewaySQLite
import GatewayTestSupport
import Testing

/// The stores every conformance test runs over.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory
    case sqlite
    case layered

    var testDescription: String { rawValue }

    /// A new empty store of this kind in `folder`, limited to `byteLimit` bytes.
    func make(in folder: TemporaryFolder, byteLimit: Int = 8 << 20) throws -> any CacheStore {
        switch self {
        case .memory:
            return MemoryCacheStore(byteLimit: byteLimit)
        case .sqlite:
            return try SQLiteCacheStore(path: folder.file("cache.sqlite"), byteLimit: byteLimit)
        case .layered:
            let back = try SQLiteCacheStore(path: folder.file("cache.sqlite"), byteLimit: byteLimit)
            return LayeredCacheStore(memory: MemoryCacheStore(byteLimit: byteLimit), back: back)
        }
    }
}

/// SQLite waits for the disk: the suite runs off the cooperative pool.
@Suite(.offPool) struct CacheStoreConformanceTests {
    @Test(arguments: StoreKind.allCases)
    func anEntryReadsBackAsItWasStored(kind: StoreKind) async throws {
        let folder = try TemporaryFolder()
        let store = try kind.make(in: folder)
        let entry = Fixture.entry(1, body: "{\"data\":{\"weird\":\"\u{0}, : . ( ) [ ] \\\"\"}}", tags: ["b", "a"])
        #expect(try await store.put(entry))
        let found = try #require(try await store.get(entry.key, now: Fixture.now))
        #expect(found == entry)
        #expect(found.tags == ["a", "b"])
        #expect(found.etag == "\"v1\"")
        #expect(found.headers["content-type"] == "application/json")
        #expect(found.key.components == entry.key.components)
    }

    @Test(arguments: StoreKind.allCases)
    func hitsMissesAndStaleHitsAreCountedPerOperation(kind: StoreKind) async throws {
        let folder = try TemporaryFolder()
        let store = try kind.make(in: folder)
        let other = CacheKey.Operation(text: "query Album{album{id}}", name: "Album")
        try await store.put(Fixture.entry(1, ttl: 60))
        try await store.put(Fixture.entry(2, operation: other))
        #expect(try await store.get(Fixture.key(1), now: Fixture.now) != nil)
        let stale = try #require(try await store.get(Fixture.key(1), now: Fixture.now.addingTimeInterval(61)))
        #expect(!stale.isFresh(at: Fixture.now.addingTimeInterval(61)))
        #expect(try await store.get(Fixture.key(3), now: Fixture.now) == nil)
        #expect(try await store.get(Fixture.key(2, operation: other), now: Fixture.now) != nil)
        let statistics = try await store.statistics()
        #expect(statistics.operations["Track"] == CacheCounters(hits: 1, misses: 1, staleHits: 1, writes: 1))
        #expect(statistics.operations["Album"] == CacheCounters(hits: 1, writes: 1))
        #expect(statistics.entries == 2)
        #expect(statistics.hitRate == 0.75)
        let listed = try await store.list(.key(Fixture.key(1)), includeBodies: false)
        #expect(listed.first?.hits == 2)
        #expect(listed.first?.entry.body.isEmpty == true)
    }

    @Test(arguments: StoreKind.allCases)
    func aPutReplacesTheEntryOfItsKey(kind: StoreKind) async throws {
        let folder = try TemporaryFolder()
        let store = try kind.make(in: folder)
        try await store.put(Fixture.entry(1, body: "first"))
        try await store.put(Fixture.entry(1, body: "second", tags: ["t"]))
        #expect(try await store.get(Fixture.key(1), now: Fixture.now)?.body == Data("second".utf8))
        #expect(try await store.list(.all, includeBodies: false).count == 1)
        #expect(try await store.statistics().writes == 2)
    }

    @Test(arguments: StoreKind.allCases)
    func removalSelectsByKeyOperationTagPartitionExpiryOrEverything(kind: StoreKind) async throws {
        let folder = try TemporaryFolder()
        let store = try kind.make(in: folder)
        let album = CacheKey.Operation(text: "query Album{album{id}}", name: "Album")
        try await store.put(Fixture.entry(1, tags: ["Track:1"]))
        try await store.put(Fixture.entry(2, tags: ["Track:2", "Artist:9"]))
        try await store.put(Fixture.entry(3, partition: .subject("alice"), ttl: 10))
        try await store.put(Fixture.entry(4, partition: .subject("alice"), ttl: nil))
        try await store.put(Fixture.entry(5, operation: album))
        try await store.put(Fixture.entry(6, ttl: 5))

        func remaining() async throws -> Set<CacheKey> {
            Set(try await store.list(.all, includeBodies: false).map(\.entry.key))
        }
        #expect(try await store.remove(.key(Fixture.key(1))) == 1)
        #expect(try await store.remove(.tag("Artist:9")) == 1)
        #expect(try await store.remove(.operation("Album")) == 1)
        #expect(try await store.remove(.expired(at: Fixture.now.addingTimeInterval(7))) == 1)
        #expect(try await remaining() == [Fixture.key(3, partition: .subject("alice")),
                                          Fixture.key(4, partition: .subject("alice"))])
        #expect(try await store.remove(.partition(.subject("alice"))) == 2)
        try await store.put(Fixture.entry(7))
        #expect(try await store.remove(.all) == 1)
        #expect(try await remaining().isEmpty)
        #expect(try await store.get(Fixture.key(7), now: Fixture.now) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func anEntryOfOnePartitionIsNeverFoundByAnother(kind: StoreKind) async throws {
        let folder = try TemporaryFolder()
        let store = try kind.make(in: folder)
        try await store.put(Fixture.entry(1, partition: .subject("alice"), body: "alice's data"))
        #expect(try await store.get(Fixture.key(1, partition: .subject("alice")), now: Fixture.now) != nil)
        for other: CachePartition in [.anonymous, .subject("bob"), .subject(""), .subject("Alice")] {
            #expect(try await store.get(Fixture.key(1, partition: other), now: Fixture.now) == nil)
        }
        try await store.put(Fixture.entry(1, partition: .subject("bob"), body: "bob's data"))
        #expect(try await store.remove(.partition(.subject("alice"))) == 1)
        #expect(try await store.list(.partition(.subject("alice"))).isEmpty)
        #expect(try await store.get(Fixture.key(1, partition: .subject("bob")), now: Fixture.now)?.body
                == Data("bob's data".utf8))
    }

    @Test(arguments: StoreKind.allCases)
    func theLeastRecentlyUsedEntriesAreEvictedToStayUnderTheLimit(kind: StoreKind) async throws {
        let folder = try TemporaryFolder()
        let limit = 2 << 20
        let store = try kind.make(in: folder, byteLimit: limit)
        for id in 0..<200 {
            try await store.put(Fixture.entry(id, bytes: 20_000, storedAt: Fixture.now.addingTimeInterval(Double(id))))
            // Entry 0 stays in use; entry 1 is never used again.
            #expect(try await store.get(Fixture.key(0), now: Fixture.now.addingTimeInterval(Double(id))) != nil)
        }
        let kept = Set(try await store.list(.all, includeBodies: false).map(\.entry.key))
        #expect(kept.contains(Fixture.key(0)))
        #expect(!kept.contains(Fixture.key(1)))
        #expect(kept.contains(Fixture.key(199)))
        let statistics = try await store.statistics()
        #expect(statistics.evictions > 0)
        #expect(statistics.evictions + statistics.entries == 200)
        #expect(statistics.bytes <= limit)
        if let disk = statistics.diskBytes { #expect(disk <= limit) }
    }

    @Test(arguments: StoreKind.allCases)
    func anEntryTooLargeForTheStoreIsNotStored(kind: StoreKind) async throws {
        let folder = try TemporaryFolder()
        let store = try kind.make(in: folder, byteLimit: 1 << 20)
        try await store.put(Fixture.entry(1))
        #expect(try await store.put(Fixture.entry(1, bytes: 600_000)) == false)
        #expect(try await store.get(Fixture.key(1), now: Fixture.now) == nil)
        #expect(try await store.put(Fixture.entry(2)))
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentReadersAndWritersKeepTheStoreConsistent(kind: StoreKind) async throws {
        let folder = try TemporaryFolder()
        let store = try kind.make(in: folder)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<6 {
                group.addTask {
                    for round in 0..<60 {
                        let id = (task * 13 + round) % 25
                        try await store.put(Fixture.entry(id, body: "task \(task) round \(round)"))
                        if let found = try await store.get(Fixture.key((id + 1) % 25), now: Fixture.now) {
                            #expect(String(decoding: found.body, as: UTF8.self).hasPrefix("task "))
                        }
                        if round % 20 == 0 { try await store.remove(.key(Fixture.key(id))) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let listed = try await store.list(.all)
        for record in listed {
            let again = try await store.get(record.entry.key, now: Fixture.now)
            #expect(again?.body == record.entry.body)
        }
        #expect(try await store.statistics().writes == 360)
    }
}
