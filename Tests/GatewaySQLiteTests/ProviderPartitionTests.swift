import Foundation
import Gateway
import GatewaySQLite
import GatewayTestSupport
import GatewayTesting
import GraphQLLanguage
import Testing

/// Partitions end to end: a provider with a token store and a SQLite-backed response cache.
/// SQLite waits for the disk: the suite runs off the cooperative pool.
@Suite(.offPool) struct ProviderPartitionTests {
    static let secret = "alice-home-address-93b1e0"

    /// A stub answering `Me` with the data of whoever the bearer token names.
    static func stub() -> StubTransport {
        let stub = StubTransport()
        for (token, user) in [("token-alice", "alice"), ("token-bob", "bob")] {
            let address = user == "alice" ? secret : "bob-address"
            stub.on(StubMatcher(label: user) { request, _ in request.headers["Authorization"] == "Bearer \(token)" },
                    reply: [.graphQL(data: ["me": ["__typename": "User", "id": .string(user),
                                                   "address": .string(address)]])])
        }
        stub.on(StubMatcher(label: "anonymous") { request, _ in request.headers["Authorization"] == nil },
                reply: [.graphQL(data: ["me": .null])])
        return stub
    }

    struct Setup {
        let folder: TemporaryFolder
        let path: String
        let stub = ProviderPartitionTests.stub()
        let provider: Provider

        init(layered: Bool) throws {
            folder = try TemporaryFolder()
            path = folder.file("cache.sqlite")
            let sqlite = try SQLiteCacheStore(path: path)
            let store: any CacheStore = layered ? LayeredCacheStore(back: sqlite) : sqlite
            let credential = Credential(accessToken: "token-alice", subject: "alice")
            provider = Provider(baseURL: try #require(URL(string: "https://api.example.com/")), transport: stub) {
                config in
                config.deadline = nil  // a real-time deadline would measure the suite's queue
                config.tokens = MemoryTokenStore(credential)
                config.cache = ResponseCache(store: store)
                config.retryPolicy = .none
            }
        }

        func me(anonymous: Bool = false) async throws -> GraphQLResponse<JSONValue> {
            var options = GraphQLRequestOptions()
            options.requiresAuthentication = !anonymous
            return try await provider.fetch(try GraphQLOperation("query Me { me { __typename id address } }"),
                                            as: JSONValue.self, options: options)
        }
    }

    @Test(arguments: [false, true])
    func anEntryOfOneUserIsNeverServedToAnotherOrToAnAnonymousRequest(layered: Bool) async throws {
        let setup = try Setup(layered: layered)
        let alice = try await setup.me()
        #expect(alice.data["me"]?["id"] == "alice")
        #expect(try await setup.me().cacheOutcome == .hit)

        let anonymous = try await setup.me(anonymous: true)
        #expect(anonymous.cacheOutcome == .miss)
        #expect(anonymous.data["me"] == .null)

        try await setup.provider.tokenCoordinator?.save(Credential(accessToken: "token-bob", subject: "bob"))
        let bob = try await setup.me()
        #expect(bob.cacheOutcome == .miss)
        #expect(bob.data["me"]?["id"] == "bob")
        #expect(setup.stub.requests.count == 3)
        let partitions = try await SQLiteCacheStore(path: setup.path, mode: .readOnly).list(.all, includeBodies: false)
            .map(\.entry.partition.description)
        #expect(Set(partitions) == ["subject:alice", "subject:bob", "anonymous"])
    }

    @Test(arguments: [false, true])
    func logoutLeavesNoRowAndNoByteOfTheUsersData(layered: Bool) async throws {
        let setup = try Setup(layered: layered)
        _ = try await setup.me()
        _ = try await setup.me(anonymous: true)
        let files = SQLiteCacheStore.databaseFiles(forPath: setup.path)
        #expect(Fixture.filesContain(files, Self.secret), "the test must see the value before the logout")

        try await setup.provider.logout()

        #expect(files.contains { $0.hasSuffix("-wal") })
        #expect(!Fixture.filesContain(files, Self.secret))
        let reader = try SQLiteCacheStore(path: setup.path, mode: .readOnly)
        #expect(try await reader.list(.partition(.subject("alice")), includeBodies: false).isEmpty)
        #expect(try await reader.list(.partition(.anonymous), includeBodies: false).count == 1)
        #expect(try await setup.provider.responseCache?.store.list(.partition(.subject("alice"))).isEmpty == true)
    }
}
