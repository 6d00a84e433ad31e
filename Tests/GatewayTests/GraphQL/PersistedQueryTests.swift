import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

/// Automatic persisted queries against a loopback server that stores hashes and can forget them.
@Suite struct PersistedQueryTests {
    @Test func hashFirstThenTextThenOnlyTheHash() async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema(), persistedQueries: true)
        defer { server.shutdown() }
        let operation = try GraphQLFixtures.store()["GetTrack"]
        let provider = GraphQLEndToEndTests.provider(server) { config in config.graphQL.persistedQueries = .enabled }
        let hash = SHA256.hexDigest(operation.text)

        let first = try await provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
        #expect(first.persistedQuery == .registered)
        #expect(first.data == server.answered.value.last)
        var received = server.received.value
        #expect(received.count == 2)
        #expect(received[0].query == nil)
        #expect(received[0].persistedQueryHash == hash)
        #expect(received[0].extensions["persistedQuery"] == ["version": 1, "sha256Hash": .string(hash)])
        #expect(received[0].variables == ["id": "t1"])
        #expect(received[1].query == operation.text)
        #expect(received[1].persistedQueryHash == hash)

        let second = try await provider.fetch(operation, variables: ["id": "t2"], as: JSONValue.self)
        #expect(second.persistedQuery == .hit)
        received = server.received.value
        #expect(received.count == 3)
        #expect(received[2].query == nil)
        #expect(received[2].persistedQueryHash == hash)
        #expect(received[2].variables == ["id": "t2"])
        #expect(server.server.requests.allSatisfy { $0.method == "POST" })

        server.forgetPersistedQueries()
        let third = try await provider.fetch(operation, variables: ["id": "t3"], as: JSONValue.self)
        #expect(third.persistedQuery == .registered)
        #expect(server.received.value.suffix(2).map { $0.query == nil } == [true, false])
    }

    @Test func hashedQueriesMayGoByGET() async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema(), persistedQueries: true)
        defer { server.shutdown() }
        let store = try GraphQLFixtures.store()
        let provider = GraphQLEndToEndTests.provider(server) { config in
            config.graphQL.persistedQueries = .enabled(usingGET: true)
        }
        _ = try await provider.fetch(store["Me"], as: JSONValue.self)
        _ = try await provider.fetch(store["Me"], as: JSONValue.self)
        _ = try await provider.fetch(store["LikeTrack"], variables: ["input": ["trackID": "t1"]], as: JSONValue.self)
        _ = try await provider.fetch(store["LikeTrack"], variables: ["input": ["trackID": "t1"]], as: JSONValue.self)
        let received = server.received.value
        // Me: hash by GET, text by POST, then hash by GET; mutations always POST.
        #expect(received.map(\.transport) == ["GET", "POST", "GET", "POST", "POST", "POST"])
        #expect(received.map { $0.query == nil } == [true, false, true, true, false, true])
        #expect(server.server.requests[0].target.contains("extensions=%7B%22persistedQuery%22"))
        #expect(!server.server.requests[0].target.contains("query="))
    }

    @Test func thePerRequestSettingWinsAndUploadsAlwaysSendText() async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema(), persistedQueries: true)
        defer { server.shutdown() }
        let store = try GraphQLFixtures.store()
        var options = GraphQLRequestOptions()
        options.persistedQueries = .enabled
        let provider = GraphQLEndToEndTests.provider(server)
        _ = try await provider.fetch(store["Me"], as: JSONValue.self, options: options)
        _ = try await provider.fetch(store["Me"], as: JSONValue.self)
        let (variables, uploads) = GraphQLFixtures.variables(for: "UploadPlaylistCover")
        _ = try await provider.fetch(store["UploadPlaylistCover"], variables: variables, uploads: uploads,
                                     as: JSONValue.self, options: options)
        let received = server.received.value
        #expect(received.map { $0.query == nil } == [true, false, false, false])
        #expect(received.map { $0.persistedQueryHash != nil } == [true, true, false, false])
    }

    @Test func theHashIsOverTheExactTextSent() async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema(), persistedQueries: true)
        defer { server.shutdown() }
        let operation = try GraphQLFixtures.store()["GetRelease"]
        let provider = GraphQLEndToEndTests.provider(server) { config in
            config.graphQL.persistedQueries = .enabled
            config.graphQL.sendsNormalizedText = true
        }
        _ = try await provider.fetch(operation, variables: ["id": "r1"], as: JSONValue.self)
        let received = server.received.value
        #expect(received.last?.query == operation.normalizedText)
        #expect(received.last?.persistedQueryHash == SHA256.hexDigest(operation.normalizedText))
        #expect(SHA256.hexDigest(operation.normalizedText) != SHA256.hexDigest(operation.text))
    }

    @Test func theCacheKeyIsTheSameWithAndWithoutPersistedQueries() async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema(), persistedQueries: true)
        defer { server.shutdown() }
        let operation = try GraphQLFixtures.store()["GetArtist"]
        var keys: [CacheKey] = []
        for (persisted, get) in [(false, false), (true, false), (true, true), (false, true)] {
            let store = RecordingCacheStore()
            let provider = GraphQLEndToEndTests.provider(server) { config in
                config.graphQL.persistedQueries = persisted ? .enabled(usingGET: get) : .disabled
                config.graphQL.usesGETForQueries = get && !persisted
                config.cache = ResponseCache(store: store)
            }
            // Twice: the server registers the hash on the first call and answers the second by hash;
            // the second gives the declared default itself, in another order.
            _ = try await provider.fetch(operation, variables: ["id": "a1", "releaseKind": nil], as: JSONValue.self)
            _ = try await provider.fetch(operation, variables: ["releaseKind": nil, "id": "a1", "topTracks": 5],
                                         as: JSONValue.self)
            keys += store.keys.value
        }
        #expect(keys.count == 8)
        let expected = CacheKey.graphQL(
            operation: operation.normalizedText, operationName: "GetArtist",
            variables: ["id": "a1", "releaseKind": nil, "topTracks": 5],
            endpoint: server.endpoint.absoluteString, partition: .anonymous)
        #expect(Set(keys) == [expected])
        // A different variable value is a different key.
        let other = try GraphQLRequest<JSONValue>(operation: operation, variables: ["id": "a2"])
        #expect(try other.cacheKey(baseURL: server.server.baseURL, partition: .anonymous) != expected)
        // Absent is not null when no default fills it.
        let absent = try GraphQLRequest<JSONValue>(operation: operation, variables: ["id": "a1"])
        #expect(try absent.cacheKey(baseURL: server.server.baseURL, partition: .anonymous) != expected)
    }

    @Test func aServerWithoutPersistedQueriesGetsTheText() async throws {
        let stub = StubTransport()
        stub.onGraphQL("Me", reply: .graphQL(errors: [GraphQLError(
            message: "PersistedQueryNotSupported", extensions: ["code": "PERSISTED_QUERY_NOT_SUPPORTED"])],
            status: 400), .graphQL(data: ["me": ["id": "u1"]]))
        let provider = makeProvider(stub) { config in config.graphQL.persistedQueries = .enabled }
        let response = try await provider.fetch(GraphQLFixtures.store()["Me"], as: JSONValue.self)
        #expect(response.data == ["me": ["id": "u1"]])
        #expect(stub.graphQLRequests.map { $0.query == nil } == [true, false])
    }
}
