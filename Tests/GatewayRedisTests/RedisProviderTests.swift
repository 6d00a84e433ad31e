import Foundation
import Gateway
@testable import GatewayRedis
import GatewayTestSupport
import GatewayTesting
import GraphQLLanguage
import Testing

/// The store under a real provider: `URLSessionTransport` against a `LoopbackServer`, with
/// `ResponseCache(store: RedisCacheStore(...))` on a real Redis.
@Suite(.requiresRedis, .timeLimit(.minutes(3))) struct RedisProviderTests {
    static let query = "query Track { track { __typename id title } }"

    struct Setup {
        let redis: RedisServer
        let api: LoopbackServer
        let log = WarningLog()
        let clock = TestClock()

        init() async throws {
            redis = try await RedisServer.start()
            api = try LoopbackServer { _ in
                .json(#"{"data":{"track":{"__typename":"Track","id":"1","title":"One"}}}"#)
            }
        }

        func provider(timeout: Duration = .seconds(5)) throws -> Provider {
            let store = Fixture.store(redis, log: log, clock: clock, timeout: timeout)
            return Provider(baseURL: try api.url("/api/"), transport: URLSessionTransport()) { config in
                config.timeout = .seconds(30)
                config.deadline = .seconds(60)
                config.retryPolicy = .none
                config.cache = ResponseCache(store: store)
            }
        }

        func track(_ provider: Provider) async throws -> CacheOutcome {
            let response = try await provider.fetch(try GraphQLOperation(RedisProviderTests.query), as: JSONValue.self)
            #expect(response.data["track"]?["title"] == "One")
            return response.cacheOutcome
        }
    }

    @Test func oneProviderFetchesAndAnotherSharingTheRedisHits() async throws {
        let setup = try await Setup()
        let first = try setup.provider()
        let second = try setup.provider()
        #expect(try await setup.track(first) == .miss)
        #expect(try await setup.track(second) == .hit)
        #expect(setup.api.requests.count == 1)
        #expect(setup.log.all.isEmpty)
    }

    @Test func requestsSucceedWithOneWarningWhileRedisIsDownAndUseItAgainOnceItIsBack() async throws {
        let setup = try await Setup()
        let provider = try setup.provider()
        #expect(try await setup.track(provider) == .miss)
        #expect(try await setup.track(provider) == .hit)

        await setup.redis.kill()
        #expect(try await setup.track(provider) == .miss)
        #expect(try await setup.track(provider) == .miss)
        #expect(setup.api.requests.count == 3)
        #expect(setup.log.all.count == 1)
        #expect(setup.log.all.first?.message.contains("unavailable") == true)

        try await setup.redis.launch()
        // Before the retry time the store stays away from Redis, even though it is back.
        #expect(try await setup.track(provider) == .miss)
        setup.clock.advance(by: .seconds(31))
        #expect(try await setup.track(provider) == .miss, "a restarted Redis starts empty")
        #expect(try await setup.track(provider) == .hit)
        #expect(setup.api.requests.count == 5)
        #expect(setup.log.all.count == 1)
    }

    @Test func aRedisThatNeverAnswersCostsOneTimeoutThenIsLeftAlone() async throws {
        let silent = try SilentServer()
        let log = WarningLog()
        let store = Fixture.store(url: RedisURL(host: "127.0.0.1", port: silent.port), log: log,
                                  timeout: .milliseconds(200))
        let key = Fixture.key(1)
        #expect(try await store.get(key, now: Date()) == nil)
        #expect(!store.isUsingRedis)
        #expect(try await store.put(Fixture.entry(1)) == false)
        #expect(try await store.get(key, now: Date()) == nil)
        #expect(log.all.count == 1)
        #expect(log.all.first?.message.contains("timed out") == true)
        await #expect(throws: GatewayError.self) { try await store.remove(.all) }
    }

    @Test func aLogoutPurgesTheUsersEntriesForEveryInstance() async throws {
        let setup = try await Setup()
        let store = Fixture.store(setup.redis, log: setup.log, clock: setup.clock)
        try await store.put(Fixture.entry(1, partition: .subject("alice")))
        try await store.put(Fixture.entry(2, partition: .subject("bob")))
        let otherInstance = ResponseCache(store: Fixture.store(setup.redis))
        await otherInstance.loggedOut(subject: "alice")
        #expect(try await store.get(Fixture.key(1, partition: .subject("alice")), now: Date()) == nil)
        #expect(try await store.get(Fixture.key(2, partition: .subject("bob")), now: Date()) != nil)
    }

    @Test func identicalRequestsInFlightOnTwoInstancesMakeOneUpstreamCall() async throws {
        let redis = try await RedisServer.start()
        let gate = Gate()
        let callers = Locked<[String]>([])
        let api = try LoopbackServer { request in
            callers.withLock { $0.append(request.headers["X-Instance"] ?? "?") }
            try await gate.wait()
            return .json(#"{"data":{"track":{"__typename":"Track","id":"1","title":"One"}}}"#)
        }
        let stores = ["first": Fixture.store(redis), "second": Fixture.store(redis)]
        var providers: [String: Provider] = [:]
        for (name, store) in stores {
            providers[name] = Provider(baseURL: try api.url("/api/"), transport: URLSessionTransport()) { config in
                config.deadline = .seconds(60)
                config.retryPolicy = .none
                config.headers["X-Instance"] = name
                config.cache = ResponseCache(store: store)
            }
        }
        let operation = try GraphQLOperation(Self.query)
        let requests = (0..<20).map { index in
            Task { [providers] in
                let provider = try #require(providers[index.isMultiple(of: 2) ? "first" : "second"])
                return try await provider.fetch(operation, as: JSONValue.self).cacheOutcome
            }
        }
        await gate.waitForArrivals(1)
        let follower = try #require(stores[callers.value.first == "first" ? "second" : "first"])
        await follower.waitForFlightWaits(1)
        gate.open()
        var outcomes: [CacheOutcome] = []
        for request in requests { outcomes.append(try await request.value) }
        #expect(callers.value.count == 1)
        #expect(outcomes.filter { $0 == .miss }.count == 1)
        #expect(outcomes.allSatisfy { [.miss, .shared, .hit].contains($0) })
    }
}
