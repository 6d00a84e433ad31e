import Foundation
@testable import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

/// `Provider.watch`: the cached value, the network's, then every change of the entry until the
/// consumer stops.
@Suite struct LiveWatchTests {
    typealias Ops = CacheOperations

    static func titles(_ response: GraphQLResponse<JSONValue>) -> String? {
        response.data["track"]?["title"]?.stringValue
    }

    @Test func aWatcherReEmitsWhenAnotherFetchStoresADifferentAnswer() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: Ops.track("t1", title: "First")),
                             .graphQL(data: Ops.track("t1", title: "Second")))
        var watched = setup.provider.watch(try Ops.getTrack(), variables: ["id": "t1"], as: JSONValue.self)
            .makeAsyncIterator()

        let first = try #require(try await watched.next())
        #expect(Self.titles(first) == "First")
        #expect(first.cacheOutcome == .bypassed, "asked the network")
        let other = try await setup.provider.fetch(try Ops.getTrack(), variables: ["id": "t1"], as: JSONValue.self,
                                                   cachePolicy: .networkOnly)
        #expect(Self.titles(other) == "Second")
        let second = try #require(try await watched.next())

        #expect(Self.titles(second) == "Second")
        #expect(second.cacheOutcome == .hit, "read from the entry the other fetch stored")
        #expect(setup.networkCalls == 2)
    }

    @Test func aWatcherRefetchesWhenAMutationInvalidatesItsQuery() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: Ops.track("t1", title: "Old")),
                             .graphQL(data: Ops.track("t1", title: "New")))
        setup.stub.onGraphQL("RenameTrack", reply: .graphQL(
            data: ["renameTrack": ["__typename": "Track", "id": "t1", "title": "New"]]))
        var watched = setup.provider.watch(try Ops.getTrack(), variables: ["id": "t1"], as: JSONValue.self)
            .makeAsyncIterator()
        #expect(Self.titles(try #require(try await watched.next())) == "Old")

        _ = try await setup.provider.fetch(try Ops.renameTrack(), variables: ["id": "t1", "title": "New"],
                                           as: JSONValue.self)
        let refetched = try #require(try await watched.next())

        #expect(Self.titles(refetched) == "New")
        #expect(refetched.cacheOutcome == .bypassed, "the network was asked again")
        #expect(setup.stub.requests.count == 3)
    }

    @Test func aWatcherRefetchesAfterThePartitionIsPurged() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: Ops.track("t1", title: "Before")),
                             .graphQL(data: Ops.track("t1", title: "After")))
        var watched = setup.provider.watch(try Ops.getTrack(), variables: ["id": "t1"], as: JSONValue.self)
            .makeAsyncIterator()
        #expect(Self.titles(try #require(try await watched.next())) == "Before")

        try await setup.cache.purge(partition: .anonymous)

        #expect(Self.titles(try #require(try await watched.next())) == "After")
    }

    @Test func theCachedValueComesFirstThenTheNetworks() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: Ops.track("t1", title: "Stored")),
                             .graphQL(data: Ops.track("t1", title: "Fresh")))
        _ = try await setup.provider.fetch(try Ops.getTrack(), variables: ["id": "t1"], as: JSONValue.self)
        var watched = setup.provider.watch(try Ops.getTrack(), variables: ["id": "t1"], as: JSONValue.self)
            .makeAsyncIterator()

        let cached = try #require(try await watched.next())
        let fresh = try #require(try await watched.next())

        #expect([Self.titles(cached), Self.titles(fresh)] == ["Stored", "Fresh"])
        #expect([cached.cacheOutcome, fresh.cacheOutcome] == [.hit, .bypassed])
    }

    @Test func storingTheSameAnswerAgainIsNotAChange() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: Ops.track("t1", title: "Same")),
                             .graphQL(data: Ops.track("t1", title: "Same")),
                             .graphQL(data: Ops.track("t1", title: "Changed")))
        var watched = setup.provider.watch(try Ops.getTrack(), variables: ["id": "t1"], as: JSONValue.self)
            .makeAsyncIterator()
        #expect(Self.titles(try #require(try await watched.next())) == "Same")

        for _ in 0..<2 {
            _ = try await setup.provider.fetch(try Ops.getTrack(), variables: ["id": "t1"], as: JSONValue.self,
                                               cachePolicy: .networkOnly)
        }

        // The next value is the changed one: the same bytes stored again made none.
        #expect(Self.titles(try #require(try await watched.next())) == "Changed")
    }

    @Test func aRESTWatcherRefetchesAfterAnUnsafeRequestToItsURL() async throws {
        let setup = CachedProvider()
        setup.stub.on(.get, "v1/users/1", reply: .json(#"{"name":"Ann"}"#, headers: ["Cache-Control": "max-age=60"]),
                      .json(#"{"name":"Ann B"}"#, headers: ["Cache-Control": "max-age=60"]))
        setup.stub.on(.put, "v1/users/1", reply: .status(204))
        var watched = setup.provider.watch(Endpoint<JSONValue>.get("users/1")).makeAsyncIterator()
        #expect(try await watched.next()?.value["name"]?.stringValue == "Ann")

        _ = try await setup.provider.send(Endpoint<Empty>.put("users/1", body: ["name": "Ann B"]))

        #expect(try await watched.next()?.value["name"]?.stringValue == "Ann B")
    }

    @Test func withoutACacheOnlyTheNetworksAnswerComes() async throws {
        let stub = StubTransport().on(.get, "v1/users/1", reply: .json(#"{"name":"Ann"}"#))
        let provider = Provider(baseURL: testBaseURL, transport: stub)
        var values: [String?] = []
        for try await response in provider.watch(Endpoint<JSONValue>.get("users/1")) {
            values.append(response.value["name"]?.stringValue)
        }
        #expect(values == ["Ann"])
    }

    @Test func tenThousandWatchesStoppedLeaveNoWatcherBehind() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: Ops.track("t1", title: "Only")))
        let getTrack = try Ops.getTrack()
        for _ in 0..<10_000 {
            for try await response in setup.provider.watch(getTrack, variables: ["id": "t1"], as: JSONValue.self) {
                #expect(Self.titles(response) == "Only")
                break
            }
        }
        await setup.cache.changes.whenUnwatched()
        #expect(setup.cache.changes.watcherCount == 0)
        #expect(setup.cache.changes.isWatched == false)
    }
}
