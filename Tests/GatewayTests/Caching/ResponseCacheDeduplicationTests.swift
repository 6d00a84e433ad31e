import Foundation
@testable import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

@Suite struct ResponseCacheDeduplicationTests {
    /// Waits until `count` requests share the call of `key`.
    private func waitForSharers(_ count: Int, of key: CacheKey, in cache: ResponseCache) async {
        while cache.sharers(of: key) < count { await Task.yield() }
    }

    private func trackKey(_ id: String) throws -> CacheKey {
        try GraphQLRequest<JSONValue>(operation: try CacheOperations.getTrack(), variables: ["id": .string(id)])
            .cacheKey(baseURL: testBaseURL, partition: .anonymous)
    }

    @Test func aHundredIdenticalQueriesMakeOneNetworkCall() async throws {
        let setup = CachedProvider()
        let gate = Gate()
        setup.stub.onGraphQL("GetTrack", reply: StubReply.graphQL(data: CacheOperations.track("t1", title: "One"))
            .held(by: gate))
        let operation = try CacheOperations.getTrack()
        let tasks = (0..<100).map { _ in
            Task { try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self) }
        }
        await waitForSharers(100, of: try trackKey("t1"), in: setup.cache)
        gate.open()
        var outcomes: [CacheOutcome] = []
        for task in tasks { outcomes.append(try await task.value.cacheOutcome) }
        #expect(setup.networkCalls == 1)
        #expect(outcomes.filter { $0 == .miss }.count == 1)
        #expect(outcomes.filter { $0 == .shared }.count == 99)
    }

    @Test func identicalRESTGetsShareOneCall() async throws {
        let setup = CachedProvider()
        let gate = Gate()
        setup.stub.on(.get, "v1/users/1", reply: StubReply.json(#"{"name":"Ann"}"#).held(by: gate))
        let key = CacheKey.rest(url: try #require(URL(string: "https://api.example.com/v1/users/1")),
                                partition: .anonymous)
        let tasks = (0..<10).map { _ in Task { try await setup.provider.send(Endpoint<JSONValue>.get("users/1")) } }
        await waitForSharers(10, of: key, in: setup.cache)
        gate.open()
        for task in tasks { #expect(try await task.value.value == ["name": "Ann"]) }
        #expect(setup.networkCalls == 1)
    }

    @Test func aCancelledSharerLeavesAndTheOthersGetTheAnswer() async throws {
        let setup = CachedProvider()
        let gate = Gate()
        setup.stub.onGraphQL("GetTrack", reply: StubReply.graphQL(data: CacheOperations.track("t1", title: "One"))
            .held(by: gate))
        let operation = try CacheOperations.getTrack()
        let tasks = (0..<3).map { _ in
            Task { try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self) }
        }
        let key = try trackKey("t1")
        await waitForSharers(3, of: key, in: setup.cache)
        tasks[0].cancel()
        // The cancelled one ends while the call is still held.
        await #expect(throws: CancellationError.self) { try await tasks[0].value }
        #expect(!gate.isOpen)
        #expect(setup.cache.sharers(of: key) == 2)
        gate.open()
        for task in tasks.dropFirst() { #expect(try await task.value.data["track"]?["title"] == "One") }
        #expect(setup.networkCalls == 1)
    }

    @Test func differentKeysDoNotShare() async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: CacheOperations.track("t1", title: "One")))
        let operation = try CacheOperations.getTrack()
        async let first = setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
        async let second = setup.provider.fetch(operation, variables: ["id": "t2"], as: JSONValue.self)
        _ = try await (first, second)
        #expect(setup.networkCalls == 2)
    }
}
