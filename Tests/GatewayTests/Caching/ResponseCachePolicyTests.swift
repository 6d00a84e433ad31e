import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

@Suite struct ResponseCachePolicyTests {
    private func title(_ response: GraphQLResponse<JSONValue>) -> String? {
        response.data["track"]?["title"]?.stringValue
    }

    @Test func cacheFirstAnswersTheSecondFetchFromTheCache() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: CacheOperations.track("t1", title: "One")))
        let operation = try CacheOperations.getTrack()
        let first = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
        let second = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
        #expect(first.cacheOutcome == .miss)
        #expect(second.cacheOutcome == .hit)
        #expect(title(second) == "One")
        #expect(setup.networkCalls == 1)
        #expect(second.metrics.attempts == 0)
        #expect(second.metrics.cacheLookup > .zero)
        let statistics = try await setup.cache.statistics()
        #expect(statistics.hits == 1 && statistics.misses == 1 && statistics.writes == 1)
    }

    @Test func differentVariablesAreDifferentEntries() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: CacheOperations.track("t1", title: "One")))
        let operation = try CacheOperations.getTrack()
        _ = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
        let other = try await setup.provider.fetch(operation, variables: ["id": "t2"], as: JSONValue.self)
        #expect(other.cacheOutcome == .miss)
        #expect(setup.networkCalls == 2)
    }

    @Test func networkOnlySkipsTheLookUpButStoresTheAnswer() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: CacheOperations.track("t1", title: "One")))
        let operation = try CacheOperations.getTrack()
        let fetched = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self,
                                                     cachePolicy: .networkOnly)
        let again = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self,
                                                   cachePolicy: .networkOnly)
        let cached = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
        #expect(fetched.cacheOutcome == .bypassed && again.cacheOutcome == .bypassed)
        #expect(cached.cacheOutcome == .hit)
        #expect(setup.networkCalls == 2)
    }

    @Test func cacheOnlyMissIsAClearErrorAndSendsNothing() async throws {
        let setup = CachedProvider()
        let operation = try CacheOperations.getTrack()
        let error = await #expect(throws: GatewayError.self) {
            try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self,
                                           cachePolicy: .cacheOnly)
        }
        #expect(error?.kind == .cacheMiss)
        #expect(error?.message.contains("query GetTrack") == true)
        #expect(error?.fix?.contains("cacheFirst") == true)
        #expect(setup.networkCalls == 0)
    }

    @Test(arguments: [false, true])
    func cacheOnlyWithoutAResponseCacheIsAnErrorOfItsOwnAndSendsNothing(graphQL: Bool) async throws {
        let stub = StubTransport(unmatched: .notFound)
        let provider = Provider(baseURL: testBaseURL, transport: stub) { config in
            config.retryPolicy = .none
            config.deadline = nil  // see makeProvider
        }
        let error = await #expect(throws: GatewayError.self) {
            if graphQL {
                _ = try await provider.fetch(try CacheOperations.getTrack(), variables: ["id": "t1"],
                                             as: JSONValue.self, cachePolicy: .cacheOnly)
            } else {
                _ = try await provider.send(Endpoint<JSONValue>.get("users/1").cachePolicy(.cacheOnly))
            }
        }
        #expect(error?.kind == .cacheNotConfigured)
        #expect(error?.message.contains("no response cache") == true, "\(String(describing: error))")
        #expect(error?.fix?.contains("config.cache") == true)
        #expect(stub.requests.isEmpty)
    }

    @Test func cacheOnlyServesAStaleEntryAsStale() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: CacheOperations.track("t1", title: "One")))
        let operation = try CacheOperations.getTrack()
        _ = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
        setup.clock.advance(by: 301)
        let stale = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self,
                                                   cachePolicy: .cacheOnly)
        #expect(stale.cacheOutcome == .stale)
        #expect(title(stale) == "One")
        #expect(setup.networkCalls == 1)
    }

    @Test func networkFirstAnswersFromTheNetworkAndFromTheCacheWhenTheNetworkFails() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply:
            .graphQL(data: CacheOperations.track("t1", title: "One")),
            .graphQL(data: CacheOperations.track("t1", title: "Two")),
            .failure(URLError(.notConnectedToInternet)))
        let operation = try CacheOperations.getTrack()
        let first = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self,
                                                   cachePolicy: .networkFirst)
        let second = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self,
                                                    cachePolicy: .networkFirst)
        let offline = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self,
                                                     cachePolicy: .networkFirst)
        #expect(title(first) == "One" && title(second) == "Two")
        #expect(second.cacheOutcome == .miss)
        #expect(title(offline) == "Two")
        #expect(offline.cacheOutcome == .hit)
        #expect(setup.networkCalls == 3)
    }

    @Test func networkFirstWithNothingCachedThrowsTheNetworkError() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: .failure(URLError(.notConnectedToInternet)))
        let operation = try CacheOperations.getTrack()
        let error = await #expect(throws: GatewayError.self) {
            try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self,
                                           cachePolicy: .networkFirst)
        }
        #expect(error?.kind == .transport)
    }

    @Test func watchYieldsTheCachedValueThenTheFreshOne() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply:
            .graphQL(data: CacheOperations.track("t1", title: "One")),
            .graphQL(data: CacheOperations.track("t1", title: "Two")))
        let operation = try CacheOperations.getTrack()
        _ = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
        var seen: [(String?, CacheOutcome)] = []
        // The sequence stays open for later changes: the first two values are the cached and the fresh one.
        for try await response in setup.provider.watch(operation, variables: ["id": "t1"], as: JSONValue.self) {
            seen.append((title(response), response.cacheOutcome))
            if seen.count == 2 { break }
        }
        #expect(seen.map(\.0) == ["One", "Two"])
        #expect(seen.map(\.1) == [.hit, .bypassed])
        #expect(setup.networkCalls == 2)
    }

    @Test func watchWithNothingCachedGivesTheFreshValueFirst() async throws {
        let setup = CachedProvider()
        setup.stub.on(.get, "v1/users/1", reply: .json(#"{"name":"Ann"}"#))
        var values: [JSONValue] = []
        // Nothing cached: the network's answer comes first, then the sequence waits for changes.
        for try await response in setup.provider.watch(Endpoint<JSONValue>.get("users/1")) {
            values.append(response.value)
            #expect(response.cacheOutcome == .notCacheable, "no freshness and no validator")
            break
        }
        #expect(values == [["name": "Ann"]])
    }

    @Test func aRequestTTLAndTheDefaultTTLSetFreshness() async throws {
        let setup = CachedProvider(defaultTTL: .seconds(100))
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: CacheOperations.track("t1", title: "One")))
        let operation = try CacheOperations.getTrack()
        let short = try GraphQLRequest<JSONValue>(operation: operation, variables: ["id": "t1"]).cacheTTL(.seconds(10))
        let long = try GraphQLRequest<JSONValue>(operation: operation, variables: ["id": "t2"])
        _ = try await setup.provider.fetch(short)
        _ = try await setup.provider.fetch(long)
        setup.clock.advance(by: 11)
        #expect(try await setup.provider.fetch(short).cacheOutcome == .miss)
        #expect(try await setup.provider.fetch(long).cacheOutcome == .hit)
        setup.clock.advance(by: 90)
        #expect(try await setup.provider.fetch(long).cacheOutcome == .miss)
        #expect(setup.networkCalls == 4)
    }

    @Test func aProviderWithoutACacheConsultsNone() async throws {
        let stub = StubTransport()
        stub.onGraphQL("GetTrack", reply: .graphQL(data: CacheOperations.track("t1", title: "One")))
        let provider = makeProvider(stub)
        let response = try await provider.fetch(try CacheOperations.getTrack(), variables: ["id": "t1"],
                                                as: JSONValue.self)
        #expect(response.cacheOutcome == .notConsulted)
        #expect(provider.responseCache == nil)
    }
}
