import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

/// Every operation of `Queries/` through `URLSessionTransport` to a loopback server that answers
/// like a GraphQL server.
@Suite struct GraphQLEndToEndTests {
    /// A provider whose GraphQL endpoint is the fake server's `/graphql`.
    static func provider(_ server: FakeGraphQLServer,
                         configure: (inout Provider.Configuration) -> Void = { _ in }) -> Provider {
        Provider(baseURL: server.server.baseURL, transport: URLSessionTransport()) { config in
            // Generous: on a loaded 2-core machine the loopback server's handlers can wait long
            // for a thread; a hang must still end.
            config.timeout = .seconds(120)
            config.deadline = .seconds(300)
            configure(&config)
        }
    }

    static func answer(_ mode: String) -> GraphQLRequestOptions {
        var options = GraphQLRequestOptions()
        options.headers["X-Answer"] = mode
        return options
    }

    @Test(arguments: GraphQLFixtures.operationNames)
    func everyOperationRoundTrips(_ name: String) async throws {
        let store = try GraphQLFixtures.store()
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema())
        defer { server.shutdown() }
        let operation = try store[name]
        let (variables, uploads) = GraphQLFixtures.variables(for: name)
        let response = try await Self.provider(server).fetch(operation, variables: variables, uploads: uploads,
                                                            as: JSONValue.self)
        #expect(response.status == 200)
        #expect(!response.hasErrors)
        #expect(response.data == server.answered.value.first)
        #expect(response.data.objectValue?.isEmpty == false)
        #expect(response.metrics.attempts == 1)
        let received = try #require(server.received.value.first)
        #expect(received.operationName == name)
        #expect(received.query == operation.text)
        #expect(received.transport == (uploads.isEmpty ? "POST" : "multipart"))
        var given = variables
        for path in uploads.keys { given[path] = nil as JSONValue }
        let sent = try operation.checkedVariables(given, uploads: Set(uploads.keys))
        #expect(received.variables == sent)
        #expect(response.request?.headers["Accept"]?.contains("application/graphql-response+json") == true)
    }

    struct Track: Decodable, Sendable, Equatable {
        struct Artist: Decodable, Sendable, Equatable {
            var id: String
            var name: String
        }
        var id: String
        var title: String
        var duration: Int
        var explicit: Bool
        var trackNumber: Int
        var genres: [String]
        var artists: [Artist]
    }

    struct GetTrack: Decodable, Sendable {
        var track: Track?
    }

    @Test func dataDecodesIntoTheCallersType() async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema())
        defer { server.shutdown() }
        let response = try await Self.provider(server).fetch(
            GraphQLFixtures.store()["GetTrack"], variables: ["id": "t1"], as: GetTrack.self)
        let track = try #require(response.data.track)
        let sent = try #require(server.answered.value.first?["track"])
        #expect(track.title == sent["title"]?.stringValue)
        #expect(track.duration == sent["duration"]?.intValue)
        #expect(track.artists.map(\.name) == sent["artists"]?.arrayValue?.compactMap { $0["name"]?.stringValue })
        #expect(track.artists.count == 2)
    }

    @Test func partialDataComesWithItsErrors() async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema())
        defer { server.shutdown() }
        let response = try await Self.provider(server).fetch(
            GraphQLFixtures.store()["GetTrack"], variables: ["id": "t1"], as: GetTrack.self,
            options: Self.answer("partial"))
        #expect(response.data.track == nil)
        #expect(response.hasErrors)
        let error = try #require(response.errors.first)
        #expect(error.message == "Could not load track")
        #expect(error.path == [.key("track")])
        #expect(error.locations == [GraphQLError.Location(line: 2, column: 3)])
        #expect(error.code == "INTERNAL")
        #expect(!response.isUnauthenticated)
    }

    @Test func errorsWithoutDataAreThrownWithEveryMessage() async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema())
        defer { server.shutdown() }
        let error = try await #require(throws: GatewayError.self) {
            try await Self.provider(server).fetch(GraphQLFixtures.store()["Me"], as: JSONValue.self,
                                                  options: Self.answer("errors"))
        }
        #expect(error.kind == .graphQLErrors)
        #expect(error.message.contains("query Me with 2 GraphQL errors and no data"))
        #expect(error.message.contains("The catalog is down"))
        #expect(error.message.contains("Try again later"))
        #expect(error.graphQLErrors.map(\.message) == ["The catalog is down", "Try again later"])
        #expect(error.endpoint == "query Me")
        #expect(error.status == 200)
    }

    @Test func notAuthenticatedFollowsTheConfiguredPredicate() async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema())
        defer { server.shutdown() }
        let store = try GraphQLFixtures.store()
        let error = try await #require(throws: GatewayError.self) {
            try await Self.provider(server).fetch(store["Me"], as: JSONValue.self,
                                                  options: Self.answer("unauthenticated"))
        }
        #expect(error.kind == .unauthenticated)
        #expect(error.graphQLErrors.first?.code == "UNAUTHENTICATED")

        let custom = Self.provider(server) { config in config.graphQL.unauthenticated = .code("INTERNAL") }
        let partial = try await custom.fetch(store["Me"], as: JSONValue.self, options: Self.answer("partial"))
        #expect(partial.isUnauthenticated)
        let plain = try await #require(throws: GatewayError.self) {
            try await custom.fetch(store["Me"], as: JSONValue.self, options: Self.answer("unauthenticated"))
        }
        #expect(plain.kind == .graphQLErrors)
    }

    @Test func anHTMLPageIsAClearErrorNotACrash() async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema())
        defer { server.shutdown() }
        let error = try await #require(throws: GatewayError.self) {
            try await Self.provider(server).fetch(GraphQLFixtures.store()["Me"], as: JSONValue.self,
                                                  options: Self.answer("html"))
        }
        #expect(error.kind == .invalidResponse)
        #expect(error.message.contains("got an HTML page (Content-Type: text/html; charset=utf-8)"))
        #expect(error.message.contains("captive portal"))
        let text = try await #require(throws: GatewayError.self) {
            try await Self.provider(server).fetch(GraphQLFixtures.store()["Me"], as: JSONValue.self,
                                                  options: Self.answer("text"))
        }
        #expect(text.kind == .invalidResponse)
        #expect(text.message.contains("got a body that is not JSON (Content-Type: text/plain)"))
    }

    @Test func aBadRequestWithAGraphQLErrorBodySurfacesItsErrors() async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema())
        defer { server.shutdown() }
        let error = try await #require(throws: GatewayError.self) {
            try await Self.provider(server).fetch(GraphQLFixtures.store()["GetTrack"], variables: ["id": "t1"],
                                                  as: JSONValue.self, options: Self.answer("bad-request"))
        }
        #expect(error.kind == .graphQLErrors)
        #expect(error.status == 400)
        #expect(error.message.contains("(HTTP 400 Bad Request)"))
        #expect(error.message.contains("ID cannot represent this value"))
        #expect(error.graphQLErrors.first?.code == "BAD_USER_INPUT")
    }

    @Test func queriesGoByGETWhenAskedAndMutationsStillPOST() async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema())
        defer { server.shutdown() }
        let store = try GraphQLFixtures.store()
        let provider = Self.provider(server) { config in config.graphQL.usesGETForQueries = true }
        let response = try await provider.fetch(store["Search"], variables: ["text": "a b&c=d"], as: JSONValue.self)
        #expect(response.data == server.answered.value.first)
        _ = try await provider.fetch(store["LikeTrack"], variables: ["input": ["trackID": "t1"]], as: JSONValue.self)
        let received = server.received.value
        #expect(received.map(\.transport) == ["GET", "POST"])
        #expect(received.first?.variables == ["text": "a b&c=d", "first": 10])
        #expect(received.first?.query == (try store["Search"]).text)
        #expect(server.server.requests.first?.method == "GET")
        #expect(server.server.requests.first?.headers["X-Apollo-Operation-Name"] == "Search")
        #expect(server.server.requests.last?.headers["X-Apollo-Operation-Name"] == nil)
    }

    @Test func theNormalizedTextCanBeSentInstead() async throws {
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema())
        defer { server.shutdown() }
        let store = try GraphQLFixtures.store()
        let provider = Self.provider(server) { config in config.graphQL.sendsNormalizedText = true }
        _ = try await provider.fetch(store["GetRelease"], variables: ["id": "r1"], as: JSONValue.self)
        #expect(server.received.value.first?.query == (try store["GetRelease"]).normalizedText)
    }

    @Test func dataThatDoesNotDecodeNamesThePathAndTheErrors() async throws {
        struct Wrong: Decodable, Sendable { var track: [String] }
        let server = try FakeGraphQLServer(schema: try GraphQLFixtures.schema())
        defer { server.shutdown() }
        let error = try await #require(throws: GatewayError.self) {
            try await Self.provider(server).fetch(GraphQLFixtures.store()["GetTrack"], variables: ["id": "t1"],
                                                  as: Wrong.self, options: Self.answer("partial"))
        }
        #expect(error.kind == .decoding)
        #expect(error.message.contains("could not decode the data of query GetTrack as Wrong"))
        #expect(error.message.contains("Could not load track"))
        #expect(error.graphQLErrors.count == 1)
    }
}
