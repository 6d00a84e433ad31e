import Foundation
import Gateway
@testable import GatewayCLI
import GatewayRedis
import GatewayTestSupport
import GraphQLLanguage
import Testing

/// `explain`, `diff`, `verify`, `export` and `vacuum` with `--redis`: the output of the SQLite
/// form, on the same entries kept in a real Redis.
@Suite struct CacheRedisVerbTests {
    /// A Redis server (started for the test) holding the fixture's entries under `app:`.
    struct FilledRedis {
        let server: RedisServer
        let store: RedisCacheStore
        let client: RedisClient

        /// `--redis URL --prefix app:`.
        var options: [String] { ["--redis", server.urlString, "--prefix", "app:"] }
        var path: String { "redis://127.0.0.1:\(server.port)/0" }

        static func start() async throws -> FilledRedis {
            let server = try await RedisServer.start()
            let url = try RedisURL(server.urlString)
            let store = RedisCacheStore(url: url, keyPrefix: "app:", poolSize: 1, timeout: .seconds(5),
                                        onWarning: { _ in })
            for entry in try CacheFixture.entries() { try #require(try await store.put(entry)) }
            return FilledRedis(server: server, store: store, client: RedisClient(url: url, poolSize: 1,
                                                                                 timeout: .seconds(5)))
        }

        /// Sends one command with the package's own client, as `redis-cli` would.
        @discardableResult
        func send(_ words: String...) async throws -> RESPValue {
            try await client.send(RedisCommand(words: words))
        }
    }

    @Test(.requiresRedis) func explainOnRedisPrintsWhatItPrintsForTheDatabase() async throws {
        let redis = try await FilledRedis.start()
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        for key in [try CacheFixture.getTrackKey("42"), try CacheFixture.notesKey(), try CacheFixture.searchKey()] {
            let prefix = String(key.hex.prefix(10))
            let onRedis = await runCache(["explain", prefix] + redis.options)
            let onDatabase = await runCache(["explain", prefix], database: path)
            #expect(onRedis.status == 0, "\(onRedis.transcript)")
            #expect(onRedis.stdout == onDatabase.stdout)
            #expect(onRedis.stdout.contains("the digest is the stored key \(key.hex)."))
            #expect(!onRedis.stdout.contains("SECRET-VAR-9"))
            let json = await runCache(["explain", "--json", key.hex] + redis.options)
            #expect(json.stdout == (await runCache(["explain", "--json", key.hex], database: path)).stdout)
            #expect(try json.json()["digestMatches"]?.boolValue == true)
        }
    }

    @Test(.requiresRedis) func diffOnRedisNamesTheVariablesAsForTheDatabase() async throws {
        let redis = try await FilledRedis.start()
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let a = try CacheFixture.getTrackKey("42")
        let b = try CacheFixture.getTrackKey("43")
        let operands = [String(a.hex.prefix(12)), String(b.hex.prefix(12))]
        let onRedis = await runCache(["diff"] + operands + redis.options)
        #expect(onRedis.status == 0, "\(onRedis.transcript)")
        #expect(onRedis.stdout == (await runCache(["diff"] + operands, database: path)).stdout)
        #expect(onRedis.stdout.contains("variables:\n  $id  A: \"42\"\n       B: \"43\""), "\(onRedis.stdout)")

        let json = try await runCache(["diff", "--json"] + operands + redis.options).json()
        let database = try await runCache(["diff", "--json"] + operands, database: path).json()
        #expect(json["same"]?.boolValue == false)
        #expect(json["differences"] == database["differences"])
        #expect(json["a"]?["key"]?.stringValue == a.hex)
    }

    @Test(.requiresRedis) func exportOnRedisPrintsEveryEntryAsForTheDatabase() async throws {
        let redis = try await FilledRedis.start()
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        // Hits and last use differ (the database's fixture was looked up); all else is the same.
        func lines(_ run: CacheRun) throws -> [String: JSONValue] {
            var byKey: [String: JSONValue] = [:]
            for line in run.lines {
                guard case .object(var object) = try JSONValue(parsing: line) else { continue }
                object.members.removeAll { ["hits", "lastAccess"].contains($0.key) }
                byKey[object["key"]?.stringValue ?? ""] = .object(object)
            }
            return byKey
        }
        let onRedis = await runCache(["export"] + redis.options)
        #expect(onRedis.status == 0, "\(onRedis.transcript)")
        let exported = try lines(onRedis)
        #expect(exported.count == 6)
        #expect(exported == (try lines(await runCache(["export"], database: path))))
        for secret in CacheFixture.secrets { #expect(!onRedis.stdout.contains(secret), "\(secret)") }

        let selected = await runCache(["export", "--tag", "Track:42"] + redis.options)
        #expect(selected.lines.count == 1)
        #expect(try JSONValue(parsing: selected.lines[0])["key"]?.stringValue == (try CacheFixture.getTrackKey("42")).hex)
    }

    @Test(.requiresRedis) func verifyOnRedisCallsASoundCacheSound() async throws {
        let redis = try await FilledRedis.start()
        let run = await runCache(["verify"] + redis.options)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.stdout == """
            Checked \(redis.path) (keys under app:):
              integrity check  ok (every entry matches its checksum and is indexed)
              keys             6 entries, each key the digest of its components
            The cache is sound.

            """)
        let json = try await runCache(["verify", "--json"] + redis.options).json()
        #expect(json["ok"]?.boolValue == true)
        #expect(json["entries"] == .number(JSONNumber(6)))
        #expect(json["diskBytes"]?.isNull == true)
        #expect(json["path"]?.stringValue == redis.path)
    }

    @Test(.requiresRedis) func verifyFindsAValueThatFailsItsChecksumAndLeavesIt() async throws {
        let redis = try await FilledRedis.start()
        let key = try CacheFixture.getTrackKey("43")
        // One byte of the stored body changed behind the store's back.
        let tampered = #"{"data":{"track":{"id":"43","title":"Dusk","duration":187,"album":{"title":"Night"}}}}"#
        try await redis.send("HSET", "app:e:" + key.hex, "body", tampered)

        let run = await runCache(["verify"] + redis.options)
        #expect(run.status == 1, "\(run.transcript)")
        #expect(run.stdout.hasPrefix("The Redis cache at \(redis.path) (keys under app:) is damaged:\n"))
        #expect(run.stdout.contains("  - the entry \(key.hex) (GetTrack) does not match its checksum: "
                                    + "its stored bytes were damaged"), "\(run.stdout)")
        #expect(run.stdout.contains(CacheVerifyVerb.redisAdvice))
        let json = try await runCache(["verify", "--json"] + redis.options).json()
        #expect(json["ok"]?.boolValue == false)
        #expect(json["problems"]?.arrayValue?.count == 1)
        // Reported, not repaired: the damaged entry is still there.
        #expect(try await redis.send("EXISTS", "app:e:" + key.hex) == .integer(1))
    }

    @Test(.requiresRedis) func verifyFindsAnEntryOverwrittenWithAStringAndOneMissingFromTheIndex() async throws {
        let redis = try await FilledRedis.start()
        let overwritten = try CacheFixture.searchKey()
        let unindexed = try CacheFixture.tracksKey()
        try await redis.send("SET", "app:e:" + overwritten.hex, "not a hash")
        try await redis.send("ZREM", "app:i:all", unindexed.hex)

        let run = await runCache(["verify", "--json"] + redis.options)
        #expect(run.status == 1, "\(run.transcript)")
        let problems = try #require(try run.json()["problems"]?.arrayValue?.compactMap(\.stringValue))
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("the key app:e:\(overwritten.hex) is not an entry's hash") })
        #expect(problems.contains { $0.hasPrefix("the entry \(unindexed.hex) (") && $0.contains("missing from the index") })
    }

    @Test(.requiresRedis) func verbsOnRedisKeepTheExitStatusesOfTheDatabase() async throws {
        let redis = try await FilledRedis.start()
        let unknown = await runCache(["explain", "0000000000"] + redis.options)
        #expect(unknown.status == 1, "\(unknown.transcript)")
        #expect(unknown.stderr.contains("no entry has a key starting with 0000000000 in \(redis.path)"))
        let notHex = await runCache(["diff", "xyz", "abc"] + redis.options)
        #expect(notHex.status == 2)
        let empty = await runCache(["export", "--tag", "nothing"] + redis.options)
        #expect(empty.status == 0 && empty.stdout.isEmpty, "\(empty.transcript)")
        await redis.server.kill()
        let down = await runCache(["verify"] + redis.options)
        #expect(down.status == 2, "\(down.transcript)")
        #expect(down.stderr.contains("check that Redis runs"), "\(down.stderr)")
    }

    @Test func aRedisThatDoesNotAnswerIsReportedOnceWithoutTheRequestsWarning() async throws {
        let url = "redis://127.0.0.1:\(try RedisServer.freePort())/0"
        let run = await runCache(["list", "--redis", url])
        #expect(run.status == 2, "\(run.transcript)")
        #expect(run.stderr.contains("gateway cache list: could not list cache entries: could not connect to Redis"),
                "\(run.stderr)")
        #expect(run.stderr.contains("check that Redis runs"))
        #expect(!run.stderr.contains("warning"), "the error says it all: \(run.stderr)")
    }

    @Test(.requiresRedis) func whatTheStoreWarnsOfIsPrintedAfterAVerbThatSucceeded() async throws {
        let server = try await RedisServer.start([])
        let run = await runCache(["list", "--redis", server.urlString])
        #expect(run.status == 0, "\(run.transcript)")
        let warning = "gateway cache list: warning: the Redis cache has no memory bound (maxmemory is 0)"
        #expect(run.stderr.hasPrefix(warning), "\(run.stderr)")
    }

    @Test func vacuumOnRedisSaysThereIsNothingToDo() async throws {
        // Nothing is sent to Redis: no server is needed, not even a reachable address.
        let run = await runCache(["vacuum", "--redis", "redis://127.0.0.1:1/0"])
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.stdout == CacheVacuumVerb.redisNote + "\n")
        #expect(run.stdout.contains("Redis frees the memory of removed and expired entries itself"))
        let json = try await runCache(["vacuum", "--json", "--redis", "redis://127.0.0.1:1/0"]).json()
        #expect(json["diskBytesBefore"]?.isNull == true && json["diskBytesAfter"]?.isNull == true)
    }
}
