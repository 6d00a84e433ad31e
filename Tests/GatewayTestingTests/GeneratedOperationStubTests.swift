import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

/// A type shaped like `gateway generate`'s output.
public struct GetTrackQuery: GraphQLQuery {
    public static let definition = GraphQLOperationDefinition(
        name: "GetTrack", kind: .query,
        text: "query GetTrack($id: ID!) {\n  track(id: $id) {\n    __typename\n    id\n    title\n  }\n}",
        normalizedText: "query GetTrack($id:ID!){track(id:$id){id title}}",
        textHash: "fbeff1f25eb8cd80771b9b784f1a9b5d0205399d0c5c6e9f4783a7d36ac95206",
        normalizedTextHash: "7827a3cb2bbaeaf2a04ca32e699b5e9daa85d1aaa1ab675525ead838fb53b18c")
    public var id: String
    public init(id: String) { self.id = id }
    public struct Data: Decodable, Sendable {
        public let track: Track?
        public struct Track: Decodable, Sendable {
            public let id: String
            public let title: String
        }
    }
}

/// The same operation name with an older text: a type generated from an earlier file.
public struct OlderGetTrackQuery: GraphQLQuery {
    public static let definition = GraphQLOperationDefinition(
        name: "GetTrack", kind: .query, text: "query GetTrack($id: ID!) {\n  track(id: $id) {\n    id\n  }\n}",
        normalizedText: "query GetTrack($id:ID!){track(id:$id){id}}",
        textHash: "4f7edddeb56ad99356277f1c5c8897af66d6625afe73d60d2c87416f913ff70d",
        normalizedTextHash: "be008b73ab4527dc1b9c49f38ba15a1b6c456d05e17a0bac4ca79cd569797333")
    public var id: String
    public init(id: String) { self.id = id }
    public struct Data: Decodable, Sendable { public let track: JSONValue? }
}

@Suite struct GeneratedOperationStubTests {
    private let track: JSONValue = ["track": ["__typename": "Track", "id": "42", "title": "One"]]

    private func provider(_ stub: StubTransport,
                          configure: (inout Provider.Configuration) -> Void = { _ in }) throws -> Provider {
        Provider(baseURL: try #require(URL(string: "https://api.example.com/v1")), transport: stub) { config in
            config.deadline = nil
            configure(&config)
        }
    }

    @Test func aStubAnswersTheGeneratedTypeByItsOperationAndVariables() async throws {
        let stub = StubTransport()
        stub.onGraphQL(GetTrackQuery.self, variables: ["id": "42"], reply: .graphQL(data: track))
        stub.onGraphQL(GetTrackQuery.self, variables: ["id": "7"], reply: .graphQL(data: ["track": nil]))
        let provider = try provider(stub)
        let found = try await provider.fetch(GetTrackQuery(id: "42"))
        let missing = try await provider.fetch(GetTrackQuery(id: "7"))
        #expect(found.data.track?.title == "One")
        #expect(missing.data.track == nil)
        #expect(stub.requests(matching: .graphQL(GetTrackQuery.self)).count == 2)
        #expect(stub.requests(matching: .graphQL(GetTrackQuery.self, variables: ["id": "7"])).count == 1)
    }

    @Test func aTypeWithTheSameNameButAnotherTextIsNotMatchedAndTheMessageNamesTheType() async throws {
        let stub = StubTransport()
        stub.onGraphQL(OlderGetTrackQuery.self, variables: ["id": "42"], reply: .graphQL(data: track))
        let error = try await #require(throws: GatewayError.self) {
            try await provider(stub).fetch(GetTrackQuery(id: "42"))
        }
        #expect(error.kind == .transport)
        #expect(error.message.contains(#"GraphQL OlderGetTrackQuery (query GetTrack)(id: "42")"#))
        #expect(StubMatcher.graphQL(GetTrackQuery.self).description == "GraphQL GetTrackQuery (query GetTrack)")
    }

    @Test func aHashOnlyRequestIsMatchedByItsPersistedQueryHash() async throws {
        let stub = StubTransport()
        stub.onGraphQL(GetTrackQuery.self, reply: .graphQL(data: track))
        let provider = try provider(stub) { config in config.graphQL.persistedQueries = .enabled }
        let response = try await provider.fetch(GetTrackQuery(id: "42"))
        #expect(response.persistedQuery == .hit)
        let sent = try #require(stub.requests.first)
        #expect(sent.graphQL?.query == nil)
        #expect(sent.graphQL?.persistedQueryHash == GetTrackQuery.definition.textHash)
        #expect(!StubMatcher.graphQL(OlderGetTrackQuery.self).matches(sent.request, body: sent.body))
        #expect(StubMatcher.graphQL("GetTrack").matches(sent.request, body: sent.body))
    }
}
