import Foundation
import Gateway
import GatewaySQLite
import GatewayTestSupport
import Testing

/// SQLite waits for the disk: the suite runs off the cooperative pool.
@Suite(.offPool) struct SQLiteCorruptionTests {
    /// A closed database of `count` entries, its write-ahead log folded back into the file.
    static func makeDatabase(_ path: String, count: Int = 300) async throws {
        let store = try SQLiteCacheStore(path: path)
        for id in 0..<count { try await store.put(Fixture.entry(id, bytes: 900)) }
        try await store.vacuum()
    }

    @Test func aGarbageHeaderIsRebuiltWithOneWarning() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("cache.sqlite")
        try await Self.makeDatabase(path)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data((0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
        try handle.close()

        let warnings = WarningLog()
        let store = try SQLiteCacheStore(path: path, onWarning: warnings.handler)
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.message.contains("damaged") == true)
        #expect(try await store.get(Fixture.key(1), now: Fixture.now) == nil)
        try await store.put(Fixture.entry(1))
        #expect(try await store.get(Fixture.key(1), now: Fixture.now) != nil)
        #expect(try await store.verify().isEmpty)
        #expect(warnings.all.count == 1)
    }

    @Test func aDamagedPageIsRebuiltWithOneWarningAndTheStoreWorksAgain() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("cache.sqlite")
        try await Self.makeDatabase(path)
        try Self.damageATableLeafPage(path)
        // The damage is real: a read-only check reports it and leaves the file alone.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)
        #expect(try await SQLiteCacheStore(path: path, mode: .readOnly).verify().isEmpty == false)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber == size)

        let warnings = WarningLog()
        let store = try SQLiteCacheStore(path: path, onWarning: warnings.handler)
        // Reading every entry meets the damaged page: the read answers as a miss, nothing throws.
        let listed = try await store.list()
        #expect(listed.count < 300)
        for id in 0..<300 { _ = try await store.get(Fixture.key(id), now: Fixture.now) }
        #expect(warnings.all.count == 1)
        try await store.put(Fixture.entry(7))
        #expect(try await store.get(Fixture.key(7), now: Fixture.now)?.body == Fixture.entry(7).body)
        #expect(try await store.verify().isEmpty)
        #expect(warnings.all.count == 1)
    }

    @Test func aReadOnlyStoreReportsDamageAndDeletesNothing() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("cache.sqlite")
        try await Self.makeDatabase(path, count: 10)
        let garbage = Data(repeating: 0x5A, count: 4096)
        try garbage.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: GatewayError.self) { try SQLiteCacheStore(path: path, mode: .readOnly) }
        #expect(error?.message.contains("damaged") == true, "\(String(describing: error))")
        #expect(FileManager.default.contents(atPath: path) == garbage)
    }

    /// Overwrites one page of the `entries` table's leaves (page type 13) in the second half of the file.
    static func damageATableLeafPage(_ path: String) throws {
        var bytes = try #require(FileManager.default.contents(atPath: path))
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let pages = bytes.count / pageSize
        let page = try #require((pages / 2..<pages).first { bytes[$0 * pageSize] == 13 })
        let start = page * pageSize
        bytes.replaceSubrange(start..<(start + pageSize), with: Data(repeating: 0xFF, count: pageSize))
        try bytes.write(to: URL(fileURLWithPath: path))
    }
}
