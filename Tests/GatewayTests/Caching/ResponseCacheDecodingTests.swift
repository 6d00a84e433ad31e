import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

/// The cache keeps only what decodes: a response that fails to decode is never stored, and a
/// stored entry that no longer decodes into the caller's type is removed with one warning and
/// fetched again.
@Suite struct ResponseCacheDecodingTests {
    struct TrackData: Decodable, Sendable {
        struct Track: Decodable, Sendable {
            let id: String
            let title: String
        }
        let track: Track
    }

    struct User: Decodable, Sendable {
        let name: String
    }

    /// A track whose title is null: valid for `JSONValue`, not for `TrackData`.
    static let untitled: JSONValue = ["track": ["__typename": "Track", "id": "t1", "title": .null]]

    static func body(_ entry: CacheRecord?) -> String {
        entry.map { String(decoding: $0.entry.body, as: UTF8.self) } ?? ""
    }

    @Test func aGraphQLEntryThatNoLongerDecodesIsFetchedAgainWithOneWarningAndReplaced() async throws {
        let warnings = WarningLog()
        let setup = CachedProvider(warnings: warnings)
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: Self.untitled),
                             .graphQL(data: CacheOperations.track("t1", title: "Two")))
        let operation = try CacheOperations.getTrack()
        _ = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)

        let typed = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: TrackData.self)
        #expect(typed.data.track.title == "Two")
        #expect(typed.cacheOutcome == .miss)
        #expect(setup.networkCalls == 2)
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.message.contains("no longer decodes") == true)
        #expect(Self.body(try await setup.store.list().first).contains("\"Two\""))
        #expect(try await setup.provider.fetch(operation, variables: ["id": "t1"], as: TrackData.self)
            .cacheOutcome == .hit)
        #expect(warnings.all.count == 1)
    }

    @Test func aRESTEntryThatNoLongerDecodesIsFetchedAgainWithOneWarningAndReplaced() async throws {
        let warnings = WarningLog()
        let setup = CachedProvider(warnings: warnings)
        setup.stub.on(.get, "v1/users/1", reply: .json(#"{"name":null}"#, headers: ["Cache-Control": "max-age=60"]),
                      .json(#"{"name":"Ann"}"#, headers: ["Cache-Control": "max-age=60"]))
        _ = try await setup.provider.send(Endpoint<JSONValue>.get("users/1"))

        let user = try await setup.provider.send(Endpoint<User>.get("users/1"))
        #expect(user.value.name == "Ann")
        #expect(user.cacheOutcome == .miss)
        #expect(setup.stub.requests.count == 2)
        #expect(warnings.all.count == 1)
        #expect(Self.body(try await setup.store.list().first) == #"{"name":"Ann"}"#)
        #expect(try await setup.provider.send(Endpoint<User>.get("users/1")).cacheOutcome == .hit)
    }

    @Test func underCacheOnlyAnEntryThatDoesNotDecodeIsAMiss() async throws {
        let warnings = WarningLog()
        let setup = CachedProvider(warnings: warnings)
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: Self.untitled))
        let operation = try CacheOperations.getTrack()
        _ = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)

        let error = await #expect(throws: GatewayError.self) {
            try await setup.provider.fetch(operation, variables: ["id": "t1"], as: TrackData.self,
                                           cachePolicy: .cacheOnly)
        }
        #expect(error?.kind == .cacheMiss)
        #expect(setup.networkCalls == 1)
        #expect(warnings.all.count == 1)
        #expect(try await setup.store.list().isEmpty)
    }

    @Test func aStaleEntryThatDoesNotDecodeIsNotRevalidatedButFetchedAgain() async throws {
        let warnings = WarningLog()
        let setup = CachedProvider(warnings: warnings)
        setup.stub.on(.get, "v1/users/1",
                      reply: .json(#"{"name":null}"#, headers: ["ETag": "\"v1\"", "Cache-Control": "no-cache"]),
                      .json(#"{"name":"Ann"}"#, headers: ["ETag": "\"v2\"", "Cache-Control": "max-age=60"]))
        _ = try await setup.provider.send(Endpoint<JSONValue>.get("users/1"))

        let user = try await setup.provider.send(Endpoint<User>.get("users/1"))
        #expect(user.value.name == "Ann")
        let sent = setup.stub.requests
        #expect(sent.count == 2)
        #expect(sent.last?.request.headers["If-None-Match"] == nil)
        #expect(warnings.all.count == 1)
        #expect(try await setup.store.list().first?.entry.etag == "\"v2\"")
    }

    @Test func aGraphQLResponseThatFailsToDecodeIsNotStored() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: Self.untitled))
        let operation = try CacheOperations.getTrack()
        let error = await #expect(throws: GatewayError.self) {
            try await setup.provider.fetch(operation, variables: ["id": "t1"], as: TrackData.self)
        }
        #expect(error?.kind == .decoding)
        #expect(try await setup.store.list().isEmpty)
        let untyped = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
        #expect(untyped.cacheOutcome == .miss)
        #expect(setup.networkCalls == 2)
    }

    @Test func aRESTResponseThatFailsToDecodeIsNotStored() async throws {
        let setup = CachedProvider()
        setup.stub.on(.get, "v1/users/1", reply: .json(#"{"name":7}"#, headers: ["Cache-Control": "max-age=60"]))
        let error = await #expect(throws: GatewayError.self) {
            try await setup.provider.send(Endpoint<User>.get("users/1"))
        }
        #expect(error?.kind == .decoding)
        #expect(try await setup.store.list().isEmpty)
        #expect(try await setup.provider.send(Endpoint<JSONValue>.get("users/1")).cacheOutcome == .miss)
        #expect(setup.stub.requests.count == 2)
    }
}
