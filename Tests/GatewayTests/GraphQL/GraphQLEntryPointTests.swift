import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

/// `send`, `fetch` and `task` with a `GraphQLRequest` made in advance: the same persisted-query
/// exchange and the same response shape from each.
@Suite struct GraphQLEntryPointTests {
    enum EntryPoint: String, CaseIterable, Sendable {
        case send, fetch, task
    }

    private static func answer(_ provider: Provider, _ request: GraphQLRequest<JSONValue>, by entry: EntryPoint)
        async throws -> GraphQLResponse<JSONValue>
    {
        switch entry {
        case .send: try await provider.send(request)
        case .fetch: try await provider.fetch(request)
        case .task: try await provider.task(request).value
        }
    }

    @Test(arguments: EntryPoint.allCases)
    func everyEntryPointFollowsPersistedQueriesAndFillsTheResponse(_ entry: EntryPoint) async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema(), persistedQueries: true)
        defer { server.shutdown() }
        let provider = GraphQLEndToEndTests.provider(server)
        var settings = GraphQLSettings()
        settings.persistedQueries = .enabled
        let request = try GraphQLRequest<JSONValue>(
            operation: try GraphQLFixtures.store()["GetTrack"], variables: ["id": "t1"], settings: settings)

        let first = try await Self.answer(provider, request, by: entry)
        let second = try await Self.answer(provider, request, by: entry)

        #expect(first.persistedQuery == .registered)
        #expect(second.persistedQuery == .hit)
        #expect(server.received.value.map { $0.query == nil } == [true, false, true])
        #expect(first.data == server.answered.value.first)
        let sent = try #require(first.request)
        #expect(sent.url == server.server.baseURL.appendingPathComponent("graphql"))
        // The hash, then the text: two attempts of one request, with one queue place and credential.
        #expect(first.metrics.attempts == 2)
        #expect(second.metrics.attempts == 1)
        #expect(second.request != nil)
    }

    @Test func aRequestWithoutSettingsOfItsOwnFollowsTheProvidersEvenThroughAGenericSend() async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema(), persistedQueries: true)
        defer { server.shutdown() }
        let provider = GraphQLEndToEndTests.provider(server) { $0.graphQL.persistedQueries = .enabled }
        let request = try GraphQLRequest<JSONValue>(operation: try GraphQLFixtures.store()["Me"])

        let response = try await Self.sendAnyRequestable(provider, request)

        #expect(response.value.persistedQuery == .registered)
        #expect(server.received.value.map { $0.query == nil } == [true, false])
    }

    @Test func settingsGivenToTheRequestWinOverTheProviders() async throws {
        let stub = StubTransport()
        stub.on(.graphQL("Me", path: .exactly("v1/api/graphql")), reply: [.graphQL(data: ["me": ["id": "u1"]])])
        let provider = makeProvider(stub) { $0.graphQL.persistedQueries = .enabled }
        var settings = GraphQLSettings()
        settings.path = "api/graphql"
        let request = try GraphQLRequest<JSONValue>(operation: try GraphQLFixtures.store()["Me"], settings: settings)

        let response = try await provider.send(request)

        #expect(response.persistedQuery == .notUsed)
        #expect(response.request?.url.path == "/v1/api/graphql")
    }

    /// `Provider.send` reached through a generic function, as a caller's own helper would.
    private static func sendAnyRequestable<R: Requestable>(_ provider: Provider, _ request: R) async throws
        -> Response<R.Value>
    {
        try await provider.send(request)
    }
}
