import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage

/// Keys and entries for the cache tests.
enum CacheFixtures {
    static let operation = CacheKey.Operation(text: "query Track($id:ID!){track(id:$id){id title}}", name: "Track")
    /// A moment with a whole number of seconds.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func key(_ id: Int, partition: CachePartition = .anonymous) -> CacheKey {
        operation.key(variables: ["id": .number(JSONNumber(id))], endpoint: "https://api.example.com/graphql",
                      partition: partition)
    }

    static func entry(_ id: Int, body: String? = nil, bytes: Int = 0, tags: [String] = [],
                      partition: CachePartition = .anonymous, ttl: TimeInterval? = 60) -> CacheEntry {
        var data = Data((body ?? #"{"data":{"track":{"id":"\#(id)"}}}"#).utf8)
        if bytes > data.count { data.append(Data(repeating: 0x20, count: bytes - data.count)) }
        return CacheEntry(key: key(id, partition: partition), body: data, tags: tags, storedAt: now,
                          expiresAt: ttl.map { now.addingTimeInterval($0) })
    }
}

/// A back store over a memory store whose next `get` or `put` can be held at a gate after it
/// has done its work (so that a test can run another operation in between), or whose writes fail.
final class ScriptedBackStore: CacheStore {
    let inner = MemoryCacheStore(byteLimit: 1 << 20)
    let getGate = Locked<Gate?>(nil)
    let putGate = Locked<Gate?>(nil)
    let failWrites = Locked(false)

    var byteLimit: Int { inner.byteLimit }

    func get(_ key: CacheKey, now: Date) async throws -> CacheEntry? {
        let entry = await inner.get(key, now: now)
        if let gate = getGate.withLock({ gate in defer { gate = nil }; return gate }) { try await gate.wait() }
        return entry
    }

    func put(_ entry: CacheEntry) async throws -> Bool {
        if failWrites.value { throw GatewayError(.cache, "the disk is full") }
        let stored = await inner.put(entry)
        if let gate = putGate.withLock({ gate in defer { gate = nil }; return gate }) { try await gate.wait() }
        return stored
    }

    func touch(_ key: CacheKey, now: Date, stale: Bool) async throws {
        await inner.touch(key, now: now, stale: stale)
    }

    func remove(_ selection: CacheSelection) async throws -> Int {
        if failWrites.value { throw GatewayError(.cache, "the disk is full") }
        return await inner.remove(selection)
    }

    func list(_ selection: CacheSelection, includeBodies: Bool) async throws -> [CacheRecord] {
        await inner.list(selection, includeBodies: includeBodies)
    }

    func statistics() async throws -> CacheStatistics { await inner.statistics() }
}
