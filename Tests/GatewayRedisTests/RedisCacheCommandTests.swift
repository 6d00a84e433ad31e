import Foundation
import Gateway
@testable import GatewayCLI
import GatewayRedis
import GatewayTestSupport
import GatewayTesting
import GraphQLLanguage
import Testing

/// `gateway request --cache redis://…` and `gateway cache VERB --redis URL` against a real Redis.
@Suite(.requiresRedis) struct RedisCacheCommandTests {
    private func run(_ arguments: [String]) async -> (status: Int32, sink: CapturedOutput) {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(arguments, output: sink.output())
        return (status, sink)
    }

    @Test func requestWithARedisCacheAnswersTheSecondTimeFromRedis() async throws {
        let redis = try await RedisServer.start()
        let count = Locked(0)
        let api = try LoopbackServer { _ in
            let number = count.withLock { value -> Int in
                value += 1
                return value
            }
            return .json(#"{"n":\#(number)}"#, headers: ["Cache-Control": "max-age=60"])
        }
        let url = try api.url("/items/1").absoluteString
        let cache = "redis://127.0.0.1:\(redis.port)/0"
        let first = await run(["request", "GET", url, "--cache", cache])
        let second = await run(["request", "GET", url, "--cache", cache])
        #expect(first.status == 0 && second.status == 0, "\(second.sink.stderr)")
        #expect(second.sink.stdout == #"{"n":1}"#)
        #expect(api.requests.count == 1)
        let listed = await run(["cache", "list", "--redis", cache, "--json"])
        #expect(listed.status == 0, "\(listed.sink.stderr)")
        #expect(try JSONValue(parsing: listed.sink.stdout).arrayValue?.count == 1)
    }

    @Test func cacheVerbsListShowCountEvictAndPurgeTheRedisCache() async throws {
        let redis = try await RedisServer.start()
        let store = Fixture.store(redis, prefix: "app:")
        for id in 1...2 { try await store.put(Fixture.entry(id, partition: .subject("alice"))) }
        try await store.put(Fixture.entry(3, partition: .subject("bob")))
        let url = "redis://127.0.0.1:\(redis.port)/0"
        let common = ["--redis", url, "--prefix", "app:"]

        let list = await run(["cache", "list"] + common + ["--json"])
        #expect(list.status == 0, "\(list.sink.stderr)")
        #expect(try JSONValue(parsing: list.sink.stdout).arrayValue?.count == 3)

        let key = Fixture.key(3, partition: .subject("bob")).hex
        let show = await run(["cache", "show", String(key.prefix(12))] + common + ["--json"])
        #expect(show.status == 0, "\(show.sink.stderr)")
        #expect(try JSONValue(parsing: show.sink.stdout)["key"] == .string(key))

        let stats = await run(["cache", "stats"] + common + ["--json"])
        #expect(stats.status == 0, "\(stats.sink.stderr)")
        let statistics = try JSONValue(parsing: stats.sink.stdout)
        #expect(statistics["entries"] == .number(JSONNumber(3)))
        #expect(statistics["byteLimit"] == .number(JSONNumber(64 << 20)))

        let evict = await run(["cache", "evict", "--partition", "alice"] + common)
        #expect(evict.sink.stdout == "Removed 2 entries.\n", "\(evict.sink.stderr)")
        let purge = await run(["cache", "purge"] + common)
        #expect(purge.sink.stdout.hasPrefix("Removed 1 entry;"), "\(purge.sink.stderr)")
        #expect(try await store.list(.all, includeBodies: false).isEmpty)
    }

    @Test func aDatabaseAndRedisTogetherOrABadURLAreUsageErrors() async throws {
        let both = await run(["cache", "list", "--redis", "redis://127.0.0.1:1/0", "--db", "/tmp/x.sqlite"])
        #expect(both.status == 2)
        #expect(both.sink.stderr.contains("not both"))
        let bad = await run(["cache", "list", "--redis", "redis://host:nope"])
        #expect(bad.status == 2)
        #expect(bad.sink.stderr.contains("not a Redis URL"))
    }

    @Test func anUnreachableRedisIsReportedWithHowToFixIt() async throws {
        let list = await run(["cache", "list", "--redis", "redis://127.0.0.1:1/0"])
        #expect(list.status == 2)
        #expect(list.sink.stderr.contains("check that Redis runs"), "\(list.sink.stderr)")
    }
}
