import Foundation
@testable import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

@Suite struct ResponseCacheStorageTests {
    @Test func mutationsAreNeverStored() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("RenameTrack", reply: .graphQL(data: ["renameTrack": ["__typename": "Track", "id": "t1"]]))
        let operation = try CacheOperations.renameTrack()
        let first = try await setup.provider.fetch(operation, variables: ["id": "t1", "title": "New"],
                                                   as: JSONValue.self)
        _ = try await setup.provider.fetch(operation, variables: ["id": "t1", "title": "New"], as: JSONValue.self)
        #expect(first.cacheOutcome == .notCacheable)
        #expect(setup.networkCalls == 2)
        #expect(try await setup.store.list().isEmpty)
    }

    @Test func responsesWithErrorsAreStoredOnlyWhenAsked() async throws {
        for storesErrors in [false, true] {
            let setup = CachedProvider(storesErrors: storesErrors)
            setup.stub.onGraphQL("GetTrack", reply: .graphQL(
                data: ["track": ["__typename": "Track", "id": "t1", "title": .null]],
                errors: [GraphQLError(message: "title failed")]))
            let operation = try CacheOperations.getTrack()
            let first = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
            let second = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
            #expect(first.hasErrors && second.hasErrors)
            #expect(second.cacheOutcome == (storesErrors ? .hit : .notCacheable))
            #expect(setup.networkCalls == (storesErrors ? 1 : 2))
        }
    }

    @Test(arguments: [
        StubReply.graphQL(errors: [GraphQLError(message: "no such track")]),
        StubReply.text("<html>portal</html>", headers: ["Content-Type": "text/html"]),
        StubReply.json(#"{"data":{"track":"#),
        StubReply.status(503),
    ])
    func failedOrIncompleteAnswersAreNeverStored(reply: StubReply) async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: reply)
        let operation = try CacheOperations.getTrack()
        _ = try? await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
        #expect(try await setup.store.list().isEmpty)
    }

    @Test func aStoredQueryCarriesItsTagsAndTypenames() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: CacheOperations.track("t1", title: "One")))
        let request = try GraphQLRequest<JSONValue>(operation: try CacheOperations.getTrack(), variables: ["id": "t1"])
            .cacheTags(["track:t1"])
        _ = try await setup.provider.fetch(request)
        let records = try await setup.store.list()
        #expect(records.count == 1)
        #expect(records.first?.entry.tags == ["track:t1", "type:Track"])
    }

    @Test func typenamesAreFoundAtEveryDepth() {
        let data: JSONValue = [
            "a": ["__typename": "A", "b": [["__typename": "B"], ["c": ["__typename": "C"]]]],
            "d": ["__typename": 3],
        ]
        #expect(ResponseCache.typenames(in: data) == ["A", "B", "C"])
    }

    @Test func uploadsAndSubscriptionsAreNotCacheable() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL(nil, reply: .graphQL(data: ["ok": true]))
        let upload = try GraphQLOperation("mutation Up($file: Upload!) { upload(file: $file) }")
        let response = try await setup.provider.fetch(
            upload, variables: [:], uploads: ["file": .data(Data([1, 2]), filename: "a.bin", contentType: "x/y")],
            as: JSONValue.self)
        #expect(response.cacheOutcome == .notCacheable)
        #expect(try await setup.store.list().isEmpty)
    }
}
