import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

@Suite struct ResponseCacheInvalidationTests {
    /// A provider with GetTrack t1, t2 and GetArtist a1 cached.
    private func filled() async throws -> CachedProvider {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: CacheOperations.track("t1", title: "One")))
        setup.stub.onGraphQL("GetArtist", reply: .graphQL(data: CacheOperations.artist("a1", name: "Ann")))
        let track = try CacheOperations.getTrack()
        let artist = try CacheOperations.getArtist()
        _ = try await setup.provider.fetch(
            GraphQLRequest<JSONValue>(operation: track, variables: ["id": "t1"]).cacheTags(["favourites"]))
        _ = try await setup.provider.fetch(track, variables: ["id": "t2"], as: JSONValue.self)
        _ = try await setup.provider.fetch(artist, variables: ["id": "a1"], as: JSONValue.self)
        #expect(try await setup.store.list().count == 3)
        return setup
    }

    private func names(_ setup: CachedProvider) async throws -> [String] {
        try await setup.store.list().map { $0.entry.name + " " + ($0.entry.key.components.variables ?? "") }
            .sorted()
    }

    @Test func byOperationName() async throws {
        let setup = try await filled()
        #expect(try await setup.provider.invalidateCache(.operation("GetTrack")) == 2)
        #expect(try await names(setup) == [#"GetArtist {"id":"a1"}"#])
    }

    @Test func byTag() async throws {
        let setup = try await filled()
        #expect(try await setup.cache.invalidate(.tag("favourites")) == 1)
        #expect(try await setup.store.list().count == 2)
    }

    @Test func byKey() async throws {
        let setup = try await filled()
        let key = try GraphQLRequest<JSONValue>(operation: try CacheOperations.getTrack(), variables: ["id": "t2"])
            .cacheKey(baseURL: testBaseURL, partition: .anonymous)
        #expect(try await setup.cache.invalidate(.key(key)) == 1)
        #expect(try await names(setup).contains(#"GetTrack {"id":"t2"}"#) == false)
    }

    @Test func everything() async throws {
        let setup = try await filled()
        #expect(try await setup.cache.invalidate(.all) == 3)
        #expect(try await setup.store.list().isEmpty)
    }

    @Test func byType() async throws {
        let setup = try await filled()
        #expect(try await setup.cache.invalidate(.type("Artist")) == 1)
        #expect(try await setup.store.list().count == 2)
    }

    @Test func aMutationNamingATypeInvalidatesTheQueriesThatReturnedIt() async throws {
        let setup = try await filled()
        setup.stub.onGraphQL("RenameTrack", reply: .graphQL(
            data: ["renameTrack": ["__typename": "Track", "id": "t1", "title": "New"]]))
        _ = try await setup.provider.fetch(try CacheOperations.renameTrack(), variables: ["id": "t1", "title": "New"],
                                           as: JSONValue.self)
        #expect(try await names(setup) == [#"GetArtist {"id":"a1"}"#])
    }

    @Test func aSuccessfulUnsafeRESTRequestInvalidatesItsURL() async throws {
        let setup = CachedProvider()
        setup.stub.on(.get, "v1/users/1", reply: .json(#"{"name":"Ann"}"#, headers: ["Cache-Control": "max-age=60"]))
        setup.stub.on(.get, "v1/users/2", reply: .json(#"{"name":"Bob"}"#, headers: ["Cache-Control": "max-age=60"]))
        setup.stub.on(.put, "v1/users/1", reply: .status(204))
        _ = try await setup.provider.send(Endpoint<JSONValue>.get("users/1"))
        _ = try await setup.provider.send(Endpoint<JSONValue>.get("users/2"))
        let put = try await setup.provider.send(Endpoint<Empty>.put("users/1", body: ["name": "Ann B"]))
        #expect(put.cacheOutcome == .notCacheable)
        let again = try await setup.provider.send(Endpoint<JSONValue>.get("users/1"))
        let other = try await setup.provider.send(Endpoint<JSONValue>.get("users/2"))
        #expect(again.cacheOutcome == .miss)
        #expect(other.cacheOutcome == .hit)
    }

    @Test func aFailedUnsafeRequestInvalidatesNothing() async throws {
        let setup = CachedProvider()
        setup.stub.on(.get, "v1/users/1", reply: .json(#"{"name":"Ann"}"#, headers: ["Cache-Control": "max-age=60"]))
        setup.stub.on(.delete, "v1/users/1", reply: .status(500))
        _ = try await setup.provider.send(Endpoint<JSONValue>.get("users/1"))
        _ = try? await setup.provider.send(Endpoint<Empty>.delete("users/1"))
        #expect(try await setup.provider.send(Endpoint<JSONValue>.get("users/1")).cacheOutcome == .hit)
    }

    @Test func aResponseThatBeganBeforeAnInvalidationIsNotStoredAfterIt() async throws {
        let setup = CachedProvider()
        let gate = Gate()
        setup.stub.onGraphQL("GetTrack", reply: StubReply.graphQL(data: CacheOperations.track("t1", title: "Old"))
            .held(by: gate))
        let operation = try CacheOperations.getTrack()
        let pending = Task { try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self) }
        await gate.waitForArrivals(1)
        try await setup.cache.purge(partition: .anonymous)
        gate.open()
        let response = try await pending.value
        #expect(response.cacheOutcome == .miss)
        #expect(try await setup.store.list().isEmpty)
    }
}
