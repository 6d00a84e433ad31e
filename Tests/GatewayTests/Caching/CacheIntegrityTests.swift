import Foundation
@testable import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

/// Damaged entries in a memory store: found by their checksum, removed with one warning, and
/// answered from the network as on a miss.
@Suite struct CacheIntegrityTests {
    /// Changes the bytes of a stored entry's body in place, leaving its checksum as it was.
    static func damage(_ store: MemoryCacheStore, _ key: CacheKey, _ change: (inout Data) -> Void) throws {
        let damaged = store.state.withLock { state in
            state.entries.use(key.digest) { slot -> Bool in
                change(&slot.entry.body)
                return true
            }
        }
        try #require(damaged != nil, "the entry must be stored before it is damaged")
    }

    /// Changes one byte of `text` in the body into `replacement`.
    static func replace(_ text: String, with replacement: String, in body: inout Data) {
        guard let range = body.range(of: Data(text.utf8)) else { return }
        body.replaceSubrange(range, with: Data(replacement.utf8))
    }

    @Test func aMemoryStoreRemovesAnEntryWhoseBytesChangedAndCountsAMiss() async throws {
        let warnings = WarningLog()
        let store = MemoryCacheStore(onWarning: warnings.handler)
        let entry = CacheFixtures.entry(1)
        await store.put(entry)
        #expect(await store.get(entry.key, now: CacheFixtures.now) == entry)
        try Self.damage(store, entry.key) { $0[$0.startIndex + 3] ^= 0x20 }

        #expect(await store.get(entry.key, now: CacheFixtures.now) == nil)
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.message.contains("checksum") == true)
        #expect(await store.list(.all, includeBodies: false).isEmpty)
        #expect(await store.get(entry.key, now: CacheFixtures.now) == nil)
        #expect(warnings.all.count == 1)
        let statistics = await store.statistics()
        #expect(statistics.operations["Track"] == CacheCounters(hits: 1, misses: 2, writes: 1))
        #expect(statistics.entries == 0 && statistics.bytes == 0)
    }

    @Test func aDamagedEntryIsFetchedAgainWithOneWarningAndReplaced() async throws {
        let warnings = WarningLog()
        let store = MemoryCacheStore(onWarning: warnings.handler)
        let setup = CachedProvider(store: store, warnings: warnings)
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: CacheOperations.track("t1", title: "One")),
                             .graphQL(data: CacheOperations.track("t1", title: "Two")))
        let operation = try CacheOperations.getTrack()
        _ = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
        let key = try #require(try await store.list().first?.entry.key)
        // Still valid JSON, so only the checksum can tell.
        try Self.damage(store, key) { Self.replace("One", with: "Onf", in: &$0) }

        let fetched = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
        #expect(fetched.cacheOutcome == .miss)
        #expect(fetched.data["track"]?["title"] == "Two")
        #expect(setup.networkCalls == 2)
        #expect(warnings.all.count == 1)
        let stored = try #require(try await store.list().first?.entry.body)
        #expect(String(decoding: stored, as: UTF8.self).contains("\"Two\""))
        let again = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
        #expect(again.cacheOutcome == .hit)
        #expect(again.data["track"]?["title"] == "Two")
        #expect(warnings.all.count == 1)
    }

    @Test func underCacheOnlyADamagedEntryIsAMiss() async throws {
        let warnings = WarningLog()
        let store = MemoryCacheStore(onWarning: warnings.handler)
        let setup = CachedProvider(store: store, warnings: warnings)
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: CacheOperations.track("t1", title: "One")))
        let operation = try CacheOperations.getTrack()
        _ = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
        let key = try #require(try await store.list().first?.entry.key)
        try Self.damage(store, key) { Self.replace("{\"track\"", with: "{\"track'", in: &$0) }

        let error = await #expect(throws: GatewayError.self) {
            try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self,
                                           cachePolicy: .cacheOnly)
        }
        #expect(error?.kind == .cacheMiss)
        #expect(setup.networkCalls == 1)
        #expect(warnings.all.count == 1)
        #expect(try await store.list().isEmpty)
    }
}
