import Foundation
import Gateway
import GatewaySQLite
import GatewayTestSupport
import Testing

/// SQLite waits for the disk: the suite runs off the cooperative pool.
@Suite(.offPool) struct SQLiteCacheStoreTests {
    @Test func entriesStatisticsAndHitsSurviveReopening() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("cache.sqlite")
        do {
            let store = try SQLiteCacheStore(path: path)
            for id in 0..<5 { try await store.put(Fixture.entry(id)) }
            for _ in 0..<3 { _ = try await store.get(Fixture.key(2), now: Fixture.now) }
            _ = try await store.get(Fixture.key(9), now: Fixture.now)
            try await store.flush()
        }
        let reopened = try SQLiteCacheStore(path: path)
        let statistics = try await reopened.statistics()
        #expect(statistics.entries == 5)
        #expect(statistics.operations["Track"] == CacheCounters(hits: 3, misses: 1, writes: 5))
        let record = try #require(try await reopened.list(.key(Fixture.key(2))).first)
        #expect(record.hits == 3)
        #expect(record.entry == Fixture.entry(2))
    }

    @Test func aRESTEntryKeepsEveryKeyComponent() async throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteCacheStore(path: folder.file("cache.sqlite"))
        let key = CacheKey.rest(url: URL(string: "https://api.example.com/items?b=2&a=1")!,
                                partition: .subject("alice"), vary: ["Accept-Language", "X-Missing"],
                                requestHeaders: ["Accept-Language": "en"])
        let entry = CacheEntry(key: key, headers: ["Vary": "Accept-Language"], body: Data("[]".utf8),
                               storedAt: Fixture.now, expiresAt: nil, lastModified: "Tue, 01 Dec 2026 10:00:00 GMT")
        try await store.put(entry)
        let record = try #require(try await store.list(.keyPrefix(String(key.hex.prefix(6)).uppercased())).first)
        #expect(record.entry == entry)
        #expect(record.entry.key.components == key.components)
        #expect(CacheKey(components: record.entry.key.components) == key)
        #expect(record.entry.name == "https://api.example.com/items?a=1&b=2")
        #expect(try await store.list(.keyPrefix("zz")).isEmpty)
    }

    @Test func theFilesAreReadableByTheOwnerOnly() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("new/nested/cache.sqlite")
        let store = try SQLiteCacheStore(path: path)
        try await store.put(Fixture.entry(1))
        for directory in [folder.file("new"), folder.file("new/nested")] {
            #expect(try Self.permissions(directory) == 0o700, "\(directory)")
        }
        for file in [path, path + "-wal", path + "-shm"] {
            #expect(try Self.permissions(file) == 0o600, "\(file)")
        }
    }

    @Test func storesOfOnePathShareOneConnectionAndItsCounts() async throws {
        let folder = try TemporaryFolder()
        let first = try SQLiteCacheStore(path: folder.file("cache.sqlite"))
        let second = try SQLiteCacheStore(path: folder.path + "/./cache.sqlite")
        for id in 0..<3 { _ = try await first.get(Fixture.key(id), now: Fixture.now) }
        // Misses after the first are still pending in the shared connection, not yet in the file.
        #expect(try await second.statistics().misses == 3)
    }

    @Test func aReadOnlyStoreReadsAndNeverWrites() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("cache.sqlite")
        let writer = try SQLiteCacheStore(path: path)
        try await writer.put(Fixture.entry(1))
        let reader = try SQLiteCacheStore(path: path, mode: .readOnly)
        #expect(try await reader.get(Fixture.key(1), now: Fixture.now)?.body == Fixture.entry(1).body)
        #expect(try await reader.get(Fixture.key(2), now: Fixture.now) == nil)
        await #expect(throws: GatewayError.self) { try await reader.put(Fixture.entry(3)) }
        await #expect(throws: GatewayError.self) { try await reader.remove(.all) }
        await #expect(throws: GatewayError.self) { try await reader.vacuum() }
        #expect(try await writer.statistics().operations["Track"] == CacheCounters(writes: 1))
        // The reader sees what the writer writes next, and never holds it up.
        for id in 10..<60 {
            try await writer.put(Fixture.entry(id))
            #expect(try await reader.list(.key(Fixture.key(id)), includeBodies: false).count == 1)
        }
        #expect(try await reader.verify().isEmpty)
    }

    @Test func aReadOnlyStoreOfAMissingFileFailsAndCreatesNothing() throws {
        let folder = try TemporaryFolder()
        let path = folder.file("missing/cache.sqlite")
        #expect(throws: GatewayError.self) { try SQLiteCacheStore(path: path, mode: .readOnly) }
        #expect(!FileManager.default.fileExists(atPath: folder.file("missing")))
    }

    @Test func anEmptyFileBecomesACache() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("cache.sqlite")
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        let reader = try SQLiteCacheStore(path: path, mode: .readOnly)
        #expect(try await reader.list().isEmpty)
        #expect(try await reader.statistics().entries == 0)
        let store = try SQLiteCacheStore(path: path)
        try await store.put(Fixture.entry(1))
        #expect(try await store.statistics().entries == 1)
    }

    @Test func aDatabaseOfANewerSchemaOrAnotherApplicationIsLeftAlone() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("cache.sqlite")
        do {
            let store = try SQLiteCacheStore(path: path)
            try await store.put(Fixture.entry(1))
        }
        let original = try #require(FileManager.default.contents(atPath: path))
        // The header keeps `user_version` at byte 60 and `application_id` at byte 68 (big-endian).
        for (offset, value, words) in [(60, UInt32(99), "newer"), (68, UInt32(0x1234_5678), "not a Gateway cache")] {
            var patched = original
            withUnsafeBytes(of: value.bigEndian) { patched.replaceSubrange(offset..<(offset + 4), with: $0) }
            try patched.write(to: URL(fileURLWithPath: path))
            let warnings = WarningLog()
            let error = #expect(throws: GatewayError.self) {
                try SQLiteCacheStore(path: path, onWarning: warnings.handler)
            }
            #expect(error?.kind == .cache)
            #expect(error?.message.contains(words) == true, "\(String(describing: error))")
            #expect(warnings.all.isEmpty)
            #expect(FileManager.default.contents(atPath: path) == patched)
        }
    }

    static func permissions(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
