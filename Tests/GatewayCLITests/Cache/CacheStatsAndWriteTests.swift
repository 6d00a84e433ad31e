import Foundation
import Gateway
import GatewaySQLite
import GraphQLLanguage
import Testing
@testable import GatewayCLI

@Suite struct CacheStatsAndWriteTests {
    @Test func statsCountsEntriesBytesHitsMissesStaleHitsAndEvictionsPerOperation() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let run = await runCache(["stats"], database: path)
        #expect(run.status == 0, "\(run.transcript)")
        for line in ["Cache       \(path)", "Entries     6 (1 expired)", "Hits        2", "Stale hits  1",
                     "Misses      1", "Hit rate    75.0 %", "Writes      6", "Evictions   0"] {
            #expect(run.stdout.contains(line + "\n"), "\(line) in\n\(run.stdout)")
        }
        #expect(run.stdout.contains("limit 64.0 MiB"))
        let row = try #require(run.lines.first { $0.hasPrefix("GetTrack ") })
        let cells = row.split(separator: " ", omittingEmptySubsequences: true)
        // GetTrack: 2 entries, 2 hits, no stale hit, 1 miss, 66.7 %, 2 writes, no eviction.
        #expect(cells.count == 11, "\(row)")
        #expect(cells.first == "GetTrack" && cells[1] == "2" && cells[4] == "2" && cells[5] == "0" && cells[6] == "1")
        #expect(row.contains("66.7 %"))

        let json = try await runCache(["stats", "--json"], database: path).json()
        #expect(json["entries"]?.intValue == 6)
        #expect(json["expired"]?.intValue == 1)
        #expect(json["hits"]?.intValue == 2)
        #expect(json["staleHits"]?.intValue == 1)
        #expect(json["misses"]?.intValue == 1)
        #expect(json["hitRate"]?.doubleValue == 0.75)
        #expect(json["writes"]?.intValue == 6)
        #expect(json["evictions"]?.intValue == 0)
        #expect(json["byteLimit"]?.intValue == SQLiteCacheStore.defaultByteLimit)
        #expect((json["diskBytes"]?.intValue ?? 0) > 0)
        let operations = try #require(json["operations"]?.arrayValue)
        let names = operations.compactMap { $0["name"]?.stringValue }
        #expect(names.first == "GetTrack")
        #expect(Set(names) == ["GetTrack", "Me", "Search", "GET https://api.example.com/tracks",
                               "GET https://api.example.com/notes"])
        let tracks = try #require(operations.first { $0["name"]?.stringValue == "GET https://api.example.com/tracks" })
        #expect(tracks["staleHits"]?.intValue == 1)
        #expect(tracks["hitRate"]?.doubleValue == 1)
    }

    @Test func writingVerbsKeepTheByteLimitTheDatabaseRecords() async throws {
        let folder = try CacheTestFolder()
        let path = folder.file("cache.sqlite")
        let limit = 8 << 20
        try await { () async throws in
            let store = try SQLiteCacheStore(path: path, byteLimit: limit)
            try await store.put(CacheEntry(key: try CacheFixture.meKey(), body: Data("{}".utf8),
                                           storedAt: CacheFixture.now, expiresAt: CacheFixture.now))
        }()
        #expect(await runCache(["stats"], database: path).stdout.contains("limit 8.0 MiB"))
        #expect(try await runCache(["evict", "--expired", "--json"], database: path).json() == ["removed": 1])
        #expect(await runCache(["vacuum"], database: path).status == 0)
        #expect(try await runCache(["stats", "--json"], database: path).json()["byteLimit"]?.intValue == limit)
    }

    @Test func evictRemovesByKeyPrefixAndByEachFilter() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let byKey = await runCache(["evict", String(try CacheFixture.getTrackKey("42").hex.prefix(12))], database: path)
        #expect(byKey.status == 0, "\(byKey.transcript)")
        #expect(byKey.stdout == "Removed 1 entry.\n")
        let expired = try await runCache(["evict", "--expired", "--json"], database: path).json()
        #expect(expired["removed"]?.intValue == 1)
        let tag = try await runCache(["evict", "--tag", "Track:43", "--json"], database: path).json()
        #expect(tag["removed"]?.intValue == 1)
        let partition = await runCache(["evict", "--partition", "user-1"], database: path)
        #expect(partition.stdout == "Removed 2 entries.\n", "\(partition.transcript)")
        let nothing = await runCache(["evict", "--operation", "GetTrack"], database: path)
        #expect(nothing.status == 0)
        #expect(nothing.stdout == "No entry matched; nothing was removed.\n")
        let left = try #require(try await runCache(["list", "--json"], database: path).json().arrayValue)
        #expect(left.compactMap { $0["operationName"]?.stringValue } == ["Search"])

        let unknown = await runCache(["evict", "fff0000"], database: path)
        #expect(unknown.status == 1)
        let neither = await runCache(["evict"], database: path)
        #expect(neither.status == 2)
        #expect(neither.stderr.contains("give the KEY to evict, or --operation, --partition, --tag or --expired"))
        let both = await runCache(["evict", "abc", "--expired"], database: path)
        #expect(both.status == 2)
        #expect(both.stderr.contains("give a KEY or filters, not both"))
        #expect(try await runCache(["list", "--json"], database: path).json().arrayValue?.count == 1)
    }

    @Test func purgeRemovesEverythingAndKeepsNoByteOfItOnDisk() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let run = await runCache(["purge"], database: path)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.stdout == "Removed 6 entries; the cache at \(path) is empty.\n")
        #expect(try await runCache(["list", "--json"], database: path).json() == [])
        let files = SQLiteCacheStore.databaseFiles(forPath: path)
        for needle in ["Blue Hour", "ada@example.com", "SECRET-ACCESS-1"] {
            let found = files.contains { file in
                FileManager.default.contents(atPath: file)?.range(of: Data(needle.utf8)) != nil
            }
            #expect(!found, "\(needle)")
        }
        let again = try await runCache(["purge", "--json"], database: path).json()
        #expect(again == ["removed": 0, "rebuilt": false])
    }

    @Test func vacuumReportsTheSizeBeforeAndAfterAndKeepsTheEntries() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        _ = await runCache(["evict", "--partition", "user-1"], database: path)
        let run = await runCache(["vacuum"], database: path)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.stdout.hasPrefix("Vacuumed \(path): "))
        let json = try await runCache(["vacuum", "--json"], database: path).json()
        #expect((json["diskBytesAfter"]?.intValue ?? 0) > 0)
        #expect(try await runCache(["list", "--json"], database: path).json().arrayValue?.count == 4)
        #expect(await runCache(["verify"], database: path).status == 0)
    }
}
