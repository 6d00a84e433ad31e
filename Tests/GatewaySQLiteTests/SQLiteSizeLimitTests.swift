import Foundation
import Gateway
import GatewaySQLite
import GatewayTestSupport
import Testing

/// SQLite waits for the disk: the suite runs off the cooperative pool.
@Suite(.offPool) struct SQLiteSizeLimitTests {
    @Test func writing50MiBUnderA10MiBLimitNeverTakesMoreThan11MiBOnDisk() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("cache.sqlite")
        let limit = 10 * 1024 * 1024
        let store = try SQLiteCacheStore(path: path, byteLimit: limit)
        var generator = SystemRandomNumberGenerator()
        var written = 0
        var largest = 0
        var id = 0
        while written < 50 * 1024 * 1024 {
            let bytes = 1024 + Int(generator.next() % (63 * 1024))
            let entry = Fixture.entry(id, bytes: bytes, storedAt: Fixture.now.addingTimeInterval(Double(id)),
                                      ttl: id % 3 == 0 ? 30 : 3600)
            #expect(try await store.put(entry))
            written += entry.body.count
            id += 1
            largest = max(largest, store.diskBytes)
        }
        #expect(largest <= 11 * 1024 * 1024, "largest size on disk: \(largest) bytes")
        let statistics = try await store.statistics()
        #expect(statistics.entries > 0)
        #expect(statistics.evictions > 0)
        #expect(statistics.evictions + statistics.entries == id)
        // The newest entry survives; the oldest went long ago.
        #expect(try await store.get(Fixture.key(id - 1), now: Fixture.now) != nil)
        #expect(try await store.get(Fixture.key(0), now: Fixture.now) == nil)
        #expect(try await store.verify().isEmpty)
    }
}
