import Foundation
import Gateway
import GatewaySQLite
import GatewayTesting
import GraphQLLanguage
import Testing
@testable import GatewayCLI

/// A cache database filled the way an application fills it: a `Provider` with a token store and a
/// `ResponseCache` over a `SQLiteCacheStore`, fetching GraphQL queries and REST GETs from a stub
/// server at fixed moments before `CacheFixture.now`.
///
/// It holds five entries: `GetTrack` for ids 42 (fetched at −180 s, then a hit at −50 s) and 43
/// (−60 s), `Me` for user-1 (−30 s, never expires), REST `tracks?offset=0&limit=10` (−20 s,
/// `max-age=60`, an ETag) and REST `notes` varying on `Accept` (−10 s). A `cacheOnly` fetch of
/// id 44 counted one more miss.
enum ProviderCacheFixture {
    static let baseURL = "https://api.example.com/"
    static let secret = "SECRET-PROVIDER-TOKEN-1"

    static func trackData(_ id: String) -> JSONValue {
        ["track": ["__typename": "Track", "id": .string(id), "title": .string("Track \(id)"),
                   "album": ["__typename": "Album", "title": "Night"]]]
    }

    static func stub() -> StubTransport {
        let stub = StubTransport()
        for id in ["42", "43"] {
            stub.onGraphQL("GetTrack", variables: ["id": .string(id)], reply: .graphQL(data: trackData(id)))
        }
        stub.onGraphQL("Me", reply: .graphQL(data: [
            "me": ["__typename": "User", "id": "u1", "name": "Ada", "access_token": .string(secret)],
        ]))
        stub.on(.get, "tracks", reply: .json(#"[{"id":"42"},{"id":"43"}]"#,
                                             headers: ["Cache-Control": "max-age=60", "ETag": "\"tracks-v1\""]))
        stub.on(.get, "notes", reply: .text("notes for you",
                                            headers: ["Vary": "Accept", "Cache-Control": "max-age=600"]))
        return stub
    }

    static func getTrack() throws -> GraphQLOperation {
        try GraphQLOperation("query GetTrack($id: ID!) { track(id: $id) { __typename id title album { title } } }")
    }

    /// The key the provider stored GetTrack `id` under.
    static func getTrackKey(_ id: String) throws -> CacheKey {
        try GraphQLRequest<JSONValue>(operation: try getTrack(), variables: ["id": .string(id)])
            .cacheKey(baseURL: try #require(URL(string: baseURL)), partition: .subject("user-1"))
    }

    /// Fills a new database at `path` through a provider.
    static func fill(_ path: String) async throws {
        let store = try SQLiteCacheStore(path: path)
        let clock = Locked(CacheFixture.now)
        let cache = ResponseCache(store: store, now: { clock.value })
        let provider = Provider(baseURL: try #require(URL(string: baseURL)), transport: stub()) { config in
            config.deadline = nil  // a real-time deadline would measure the suite's queue
            config.tokens = MemoryTokenStore(Credential(accessToken: "token-1", subject: "user-1"))
            config.cache = cache
            config.retryPolicy = .none
        }
        func at(_ seconds: TimeInterval) { clock.withLock { $0 = CacheFixture.now.addingTimeInterval(seconds) } }
        let track = try getTrack()
        at(-180)
        _ = try await provider.fetch(track, variables: ["id": "42"], as: JSONValue.self)
        at(-60)
        _ = try await provider.fetch(track, variables: ["id": "43"], as: JSONValue.self)
        at(-50)
        _ = try await provider.fetch(track, variables: ["id": "42"], as: JSONValue.self)
        at(-40)
        _ = try? await provider.fetch(track, variables: ["id": "44"], as: JSONValue.self, cachePolicy: .cacheOnly)
        at(-30)
        _ = try await provider.fetch(try GraphQLOperation("query Me { me { __typename id name access_token } }"),
                                     as: JSONValue.self)
        at(-20)
        _ = try await provider.send(Endpoint<Data>.get("tracks", query: [URLQueryItem(name: "offset", value: "0"),
                                                                         URLQueryItem(name: "limit", value: "10")]))
        at(-10)
        _ = try await provider.send(Endpoint<Data>.get("notes", headers: ["Accept": "text/plain"]))
        try await store.flush()
    }

    /// A new folder holding a database filled through a provider.
    static func filledDatabase(_ label: String = #function) async throws -> (CacheTestFolder, String) {
        let folder = try CacheTestFolder(label)
        let path = folder.file("cache.sqlite")
        try await fill(path)
        return (folder, path)
    }
}
