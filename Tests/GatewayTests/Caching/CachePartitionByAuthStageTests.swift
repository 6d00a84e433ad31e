import Foundation
@testable import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

/// Without a token store, the auth stage names the partition: two static tokens never share an
/// entry, and a stage that cannot tell keeps its responses out of the cache.
@Suite struct CachePartitionByAuthStageTests {
    /// Attaches a key but says nothing about whose data the answers are.
    struct SilentKeyAuth: AuthStage {
        let key: String
        func authorize(_ request: PreparedRequest, context: RequestContext) async throws -> PreparedRequest {
            var request = request
            request.headers["X-API-Key"] = key
            return request
        }
    }

    func fetchTrack(_ setup: CachedProvider) async throws -> GraphQLResponse<JSONValue> {
        try await setup.provider.fetch(try CacheOperations.getTrack(), variables: ["id": "t1"], as: JSONValue.self)
    }

    @Test func twoBearerTokensNeverShareAnEntry() async throws {
        let store = MemoryCacheStore()
        let stub = StubTransport().onGraphQL("GetTrack", reply: .graphQL(data: CacheOperations.track("t1", title: "A")))
        let alice = CachedProvider(store: store, stub: stub) { $0.auth = .bearer("token-of-alice") }
        let bob = CachedProvider(store: store, stub: stub) { $0.auth = .bearer("token-of-bob") }
        #expect(try await fetchTrack(alice).cacheOutcome == .miss)
        #expect(try await fetchTrack(alice).cacheOutcome == .hit)
        #expect(try await fetchTrack(bob).cacheOutcome == .miss)
        #expect(stub.requests.count == 2)
        let partitions = Set(try await store.list().map(\.entry.key.components.partition))
        #expect(partitions.count == 2)
        #expect(!partitions.contains(.anonymous))
        #expect(partitions.allSatisfy { !($0.subject ?? "").contains("token-of") })
    }

    @Test func aStageThatCannotTellKeepsItsAnswersOutOfTheCache() async throws {
        let stub = StubTransport().onGraphQL("GetTrack", reply: .graphQL(data: CacheOperations.track("t1", title: "A")))
        let setup = CachedProvider(stub: stub) { $0.auth = SilentKeyAuth(key: "k") }
        #expect(try await fetchTrack(setup).cacheOutcome == .notCacheable)
        #expect(try await fetchTrack(setup).cacheOutcome == .notCacheable)
        #expect(stub.requests.count == 2)
        #expect(try await setup.store.list().isEmpty)
    }

    @Test func withoutAStageAnswersAreAnonymous() async throws {
        let stub = StubTransport().onGraphQL("GetTrack", reply: .graphQL(data: CacheOperations.track("t1", title: "A")))
        let setup = CachedProvider(stub: stub)
        _ = try await fetchTrack(setup)
        #expect(try await fetchTrack(setup).cacheOutcome == .hit)
        #expect(try await setup.store.list().map(\.entry.key.components.partition) == [.anonymous])
    }
}
