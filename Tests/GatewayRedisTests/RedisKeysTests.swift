import Foundation
import Gateway
@testable import GatewayRedis
import Testing

/// Key names and the fields a hit reads, without a server.
@Suite struct RedisKeysTests {
    @Test func anEntrysNameAsBytesIsItsNameAsText() {
        let keys = RedisKeys(prefix: "app:é:")
        let digest = Fixture.key(42).digest
        #expect(keys.entryBytes(digest) == Array(keys.entry(digest).utf8))
    }

    @Test func aHitsFieldsByPositionMatchTheFieldsOfTheWholeHash() throws {
        let entry = Fixture.entry(3, tags: ["Track:3"])
        var write = RedisCommand("HSET", "name")
        RedisRecord.hashArguments(CacheStoredFields(entry), into: &write)
        var hash: [String: [UInt8]] = [:]
        var index = 2
        while index + 1 < write.arguments.count {
            hash[String(decoding: write.arguments[index], as: UTF8.self)] = write.arguments[index + 1]
            index += 2
        }
        let reply = RESPValue.array(RedisEntryFields.names.map { hash[$0].map(RESPValue.bulkString) ?? .null })
        let fields = try #require(RedisEntryFields(values: reply))
        #expect(fields.checksumMatches)
        #expect(fields.entry(key: entry.key) == entry)
        #expect(RedisRecord.entry(hash, key: entry.key) == entry)

        var damaged = fields
        damaged.body?[0] ^= 1
        #expect(!damaged.checksumMatches, "a body that no longer matches its checksum is not an entry")
    }

    @Test func aReplyWithNoFieldIsNoEntry() {
        #expect(RedisEntryFields(values: .array(RedisEntryFields.names.map { _ in .null })) == nil)
        #expect(RedisEntryFields(values: .array([.null])) == nil)
        #expect(RedisEntryFields(values: .null) == nil)
    }
}
