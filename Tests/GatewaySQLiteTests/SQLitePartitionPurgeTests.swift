import Foundation
import Gateway
import GatewaySQLite
import GatewayTestSupport
import Testing

/// SQLite waits for the disk: the suite runs off the cooperative pool.
@Suite(.offPool) struct SQLitePartitionPurgeTests {
    static let secret = "alice-home-address-4f1c9a77"

    /// Fills a store with many entries of alice (each holding the secret) and of bob.
    static func fill(_ store: SQLiteCacheStore) async throws {
        for id in 0..<150 {
            let body = #"{"data":{"user":{"id":"alice","address":"\#(secret)","n":\#(id)}}}"#
            try await store.put(Fixture.entry(id, partition: .subject("alice"), body: body, bytes: 1500))
            try await store.put(Fixture.entry(id, partition: .subject("bob"), body: #"{"n":\#(id)}"#, bytes: 1500))
        }
        // Some replaced, some read: old versions of pages end up in the log and the free list.
        for id in 0..<40 {
            let body = #"{"data":{"user":{"id":"alice","address":"\#(secret)","v":2}}}"#
            try await store.put(Fixture.entry(id, partition: .subject("alice"), body: body))
            _ = try await store.get(Fixture.key(id, partition: .subject("alice")), now: Fixture.now)
        }
    }

    @Test func purgingAPartitionLeavesNoRowAndNoByteOfItsData() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("cache.sqlite")
        let store = try SQLiteCacheStore(path: path)
        try await Self.fill(store)
        let files = SQLiteCacheStore.databaseFiles(forPath: path)
        #expect(Fixture.filesContain(files, Self.secret), "the test must see the value before the purge")

        #expect(try await store.remove(.partition(.subject("alice"))) == 150)

        #expect(try await store.list(.partition(.subject("alice"))).isEmpty)
        #expect(try await store.list(.partition(.subject("bob"))).count == 150)
        #expect(!Fixture.filesContain(files, Self.secret))
        let reader = try SQLiteCacheStore(path: path, mode: .readOnly)
        #expect(try await reader.list(.partition(.subject("alice")), includeBodies: false).isEmpty)
        #expect(try await reader.verify().isEmpty)
    }

    @Test func purgingEverythingLeavesNoByteOfAnyEntry() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("cache.sqlite")
        let store = try SQLiteCacheStore(path: path)
        try await Self.fill(store)
        #expect(try await store.remove(.all) == 300)
        #expect(try await store.statistics().entries == 0)
        #expect(!Fixture.filesContain(SQLiteCacheStore.databaseFiles(forPath: path), Self.secret))
        #expect(!Fixture.filesContain(SQLiteCacheStore.databaseFiles(forPath: path), "alice"))
    }

    @Test func aLayeredStoreForgetsThePartitionInMemoryToo() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("cache.sqlite")
        let store = LayeredCacheStore(memory: MemoryCacheStore(), back: try SQLiteCacheStore(path: path))
        try await store.put(Fixture.entry(1, partition: .subject("alice"), body: Self.secret))
        #expect(try await store.get(Fixture.key(1, partition: .subject("alice")), now: Fixture.now) != nil)
        try await store.remove(.partition(.subject("alice")))
        #expect(try await store.get(Fixture.key(1, partition: .subject("alice")), now: Fixture.now) == nil)
        #expect(await store.memory.statistics().entries == 0)
        #expect(!Fixture.filesContain(SQLiteCacheStore.databaseFiles(forPath: path), Self.secret))
    }
}
