import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

/// A GraphQL response's `Cache-Control` is honoured as a REST response's is.
@Suite struct GraphQLCacheControlTests {
    static func reply(_ data: JSONValue, cacheControl: String) -> StubReply {
        .json(JSONValue.object(["data": data]).serialized(), headers: ["Cache-Control": cacheControl])
    }

    @Test(arguments: ["no-store", "no-store, max-age=600", "private, no-store"])
    func aResponseSayingNoStoreIsNeverStoredOrServed(cacheControl: String) async throws {
        let setup = CachedProvider()
        setup.stub.onGraphQL("GetTrack", reply: Self.reply(CacheOperations.track("t1", title: "One"),
                                                           cacheControl: cacheControl))
        let operation = try CacheOperations.getTrack()
        let first = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
        let second = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
        #expect(first.cacheOutcome == .notCacheable && second.cacheOutcome == .notCacheable)
        #expect(setup.networkCalls == 2)
        #expect(try await setup.store.list().isEmpty)
        let error = await #expect(throws: GatewayError.self) {
            try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self,
                                           cachePolicy: .cacheOnly)
        }
        #expect(error?.kind == .cacheMiss)
    }

    @Test func aPrivateResponseIsKeptInTheRequestersPartitionOnly() async throws {
        let tokens = MemoryTokenStore(Credential(accessToken: "token-alice", subject: "alice"))
        let setup = CachedProvider(tokens: tokens)
        setup.stub.onGraphQL("GetTrack", reply: Self.reply(CacheOperations.track("t1", title: "Mine"),
                                                           cacheControl: "private, max-age=60"))
        var options = GraphQLRequestOptions()
        options.requiresAuthentication = true
        let operation = try CacheOperations.getTrack()
        _ = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self, options: options)
        let again = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self,
                                                   options: options)
        #expect(again.cacheOutcome == .hit)
        #expect(try await setup.store.list().map(\.entry.partition) == [.subject("alice")])

        options.requiresAuthentication = false
        let anonymous = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self,
                                                       options: options)
        #expect(anonymous.cacheOutcome != .hit)
        #expect(setup.networkCalls == 2)
    }
}
