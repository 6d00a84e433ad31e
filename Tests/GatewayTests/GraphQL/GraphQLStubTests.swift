import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

/// `StubTransport` matching GraphQL requests, and the pipeline's treatment of GraphQL requests.
@Suite struct GraphQLStubTests {
    @Test func stubsAnswerByOperationNameAndVariables() async throws {
        let stub = StubTransport()
        stub.onGraphQL("GetTrack", variables: ["id": "1"], reply: .graphQL(data: ["track": ["title": "One"]]))
        stub.onGraphQL("GetTrack", variables: ["id": "2"], reply: .graphQL(data: ["track": ["title": "Two"]]))
        stub.onGraphQL("Me", reply: .graphQL(data: ["me": ["id": "u1"]]))
        let provider = makeProvider(stub)
        let store = try GraphQLFixtures.store()
        let one = try await provider.fetch(store["GetTrack"], variables: ["id": "1"], as: JSONValue.self)
        let two = try await provider.fetch(store["GetTrack"], variables: ["id": "2"], as: JSONValue.self)
        let me = try await provider.fetch(store["Me"], as: JSONValue.self)
        #expect(one.data["track"]?["title"] == "One")
        #expect(two.data["track"]?["title"] == "Two")
        #expect(me.data["me"]?["id"] == "u1")
        #expect(stub.graphQLRequests.map(\.operationName) == ["GetTrack", "GetTrack", "Me"])

        // `1` is not `"1"`, and another operation is not matched.
        let unmatched = try await #require(throws: GatewayError.self) {
            try await provider.fetch(store["GetTrack"], variables: ["id": 1], as: JSONValue.self)
        }
        #expect(unmatched.kind == .transport)
        #expect(unmatched.message.contains("GraphQL GetTrack(id: \"1\")"))
    }

    @Test func stubsMatchGETRequestsToo() async throws {
        let stub = StubTransport()
        stub.on(.graphQL("Search", variables: ["text": "jazz"], path: "graphql"),
                reply: [.graphQL(data: ["search": []])])
        let provider = makeProvider(stub) { config in config.graphQL.usesGETForQueries = true }
        _ = try await provider.fetch(GraphQLFixtures.store()["Search"], variables: ["text": "jazz"], as: JSONValue.self)
        #expect(stub.requests.first?.method == .get)
        #expect(stub.requests.first?.url.path == "/v1/graphql")
        #expect(stub.graphQLRequests.first?.variables == ["text": "jazz", "first": 10])
    }

    @Test func theEndpointPathIsConfigurable() async throws {
        let stub = StubTransport()
        stub.on(.graphQL("Me", path: "api/gql"), reply: [.graphQL(data: ["me": nil])])
        let provider = makeProvider(stub) { config in config.graphQL.path = "api/gql" }
        _ = try await provider.fetch(GraphQLFixtures.store()["Me"], as: JSONValue.self)
        #expect(stub.requests.first?.url.absoluteString == "https://api.example.com/v1/api/gql")
        #expect(stub.requests.first?.headers["Content-Type"] == "application/json")
        let body = try #require(stub.requests.first?.bodyText)
        #expect(body.hasPrefix(#"{"query":"query Me {"#))
        #expect(body.hasSuffix(#","operationName":"Me"}"#))
    }

    static func retrying() -> RetryPolicy { RetryPolicy(maxRetries: 2, initialDelay: .zero, jitter: .none) }

    @Test func queriesAreRetriedAndMutationsAreNot() async throws {
        let stub = StubTransport()
        stub.onGraphQL("Me", reply: .status(503), .graphQL(data: ["me": ["id": "u1"]]))
        stub.onGraphQL("LikeTrack", reply: .status(503), .graphQL(data: ["likeTrack": ["likedCount": 1]]))
        let provider = makeProvider(stub) { config in config.retryPolicy = Self.retrying() }
        let store = try GraphQLFixtures.store()
        let me = try await provider.fetch(store["Me"], as: JSONValue.self)
        #expect(me.metrics.attempts == 2)
        let error = try await #require(throws: GatewayError.self) {
            try await provider.fetch(store["LikeTrack"], variables: ["input": ["trackID": "t1"]], as: JSONValue.self)
        }
        #expect(error.kind == .status)
        #expect(stub.requests(matching: .graphQL("LikeTrack")).count == 1)
    }

    @Test func aMutationWithAnIdempotencyKeyIsRetriedWithTheSameKey() async throws {
        let stub = StubTransport()
        stub.onGraphQL("LikeTrack", reply: .status(502), .graphQL(data: ["likeTrack": ["likedCount": 1]]))
        let provider = makeProvider(stub) { config in config.retryPolicy = Self.retrying() }
        var options = GraphQLRequestOptions()
        options.idempotencyKey = "like-t1-0001"
        let response = try await provider.fetch(GraphQLFixtures.store()["LikeTrack"],
                                                variables: ["input": ["trackID": "t1"]], as: JSONValue.self,
                                                options: options)
        #expect(response.metrics.attempts == 2)
        #expect(stub.requests.map { $0.headers["Idempotency-Key"] } == ["like-t1-0001", "like-t1-0001"])
        #expect(Set(stub.requests.map(\.body)).count == 1)
    }

    @Test func aSubscriptionIsRefusedClearly() async throws {
        let stub = StubTransport()
        let operation = try GraphQLOperation("subscription Plays { plays }")
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).fetch(operation, as: JSONValue.self)
        }
        #expect(error.kind == .invalidRequest)
        #expect(error.message.contains("subscription"))
        #expect(stub.requests.isEmpty)
    }

    @Test func responsesThatAreNotEnvelopesAreClearErrors() async throws {
        let cases: [(StubReply, String)] = [
            (.json("[1, 2]"), "got a list"),
            (.json(#"{"result": 1}"#), "without \"data\" or \"errors\""),
            (.json(#"{"data": {}, "errors": "bad"}"#), "\"errors\" that is a string"),
            (.status(200), "got an empty body"),
            (.text("<!doctype html><p>Login</p>", status: 502), "HTML page"),
        ]
        for (reply, words) in cases {
            let stub = StubTransport()
            stub.onGraphQL("Me", reply: reply)
            let error = try await #require(throws: GatewayError.self) {
                try await makeProvider(stub).fetch(GraphQLFixtures.store()["Me"], as: JSONValue.self)
            }
            #expect(error.message.contains(words), "\(error.message)")
        }
    }

    @Test func theGraphQLRequestIsAnOrdinaryRequestable() async throws {
        let stub = StubTransport()
        stub.onGraphQL("Me", reply: .graphQL(data: ["me": ["id": "u1"]], extensions: ["cost": 3]))
        let request = try GraphQLRequest<JSONValue>(operation: GraphQLFixtures.store()["Me"])
        let response = try await makeProvider(stub).send(request)
        #expect(response.data == ["me": ["id": "u1"]])
        #expect(response.extensions == ["cost": 3])
        #expect(response.persistedQuery == .notUsed)
        #expect(response.request?.method == .post)
        #expect(response.metrics.attempts == 1)
        #expect(request.name == "query Me")
    }
}
