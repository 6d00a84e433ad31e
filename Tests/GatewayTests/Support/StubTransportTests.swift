import Foundation
import Gateway
import GatewayTesting
import Testing

@Suite struct StubTransportTests {
    @Test func repliesAreUsedInOrderAndTheLastRepeats() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(401), .status(200))
        let provider = makeProvider(stub)
        let statuses = [
            (try? await provider.send(Endpoint<Empty>.get("x")))?.status,
            (try? await provider.send(Endpoint<Empty>.get("x")))?.status,
            (try? await provider.send(Endpoint<Empty>.get("x")))?.status,
        ]
        #expect(statuses == [nil, 200, 200])
        #expect(stub.requests.count == 3)
    }

    @Test func stubsMatchOnMethodPathAndQuery() async throws {
        let stub = StubTransport()
            .on(.get, "tracks", query: .exactly(["id": "1"]), reply: .text("one"))
            .on(.get, "tracks", query: .exactly(["id": "2"]), reply: .text("two"))
            .on(.post, "tracks", reply: .text("created", status: 201))
        let provider = makeProvider(stub)
        let one = try await provider.value(Endpoint<Data>.get("tracks", query: [URLQueryItem(name: "id", value: "1")]))
        let two = try await provider.value(Endpoint<Data>.get("tracks", parameters: ["id": 2]))
        let created = try await provider.send(Endpoint<Data>.post("tracks"))
        #expect(String(decoding: one, as: UTF8.self) == "one")
        #expect(String(decoding: two, as: UTF8.self) == "two")
        #expect(created.status == 201)
    }

    @Test func pathsMatchAtASegmentBoundaryUnderTheBasePath() {
        let request = HTTPRequest(method: .get, url: URL(string: "https://api.example.com/v1/users/42")!)
        #expect(StubMatcher(path: "users/42").matches(request, body: Data()))
        #expect(StubMatcher(path: "/v1/users/42/").matches(request, body: Data()))
        #expect(!StubMatcher(path: "rs/42").matches(request, body: Data()))
        #expect(!StubMatcher(path: "users").matches(request, body: Data()))
    }

    @Test func aBodyPredicateMatchesOnTheBodyBytes() async throws {
        let stub = StubTransport()
            .on(StubMatcher(method: .post, path: "graphql", body: { _, body in
                String(decoding: body, as: UTF8.self).contains("\"operationName\":\"GetTrack\"")
            }), reply: [.json(#"{"id": 1, "name": "track"}"#)])
        let body = ["operationName": "GetTrack", "query": "query GetTrack { track { id } }"]
        let user = try await makeProvider(stub).value(Endpoint<User>.post("graphql", body: body))
        #expect(user.name == "track")
    }

    @Test func anUnmatchedRequestFailsWithTheListOfStubs() async throws {
        let stub = StubTransport().on(.get, "a", reply: .status(200)).on(.post, "b", query: .exactly(["x": "1"]),
                                                                          reply: .status(200))
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).send(Endpoint<Empty>.get("c"))
        }
        #expect(error.kind == .transport)
        #expect(error.message.contains("no stub matches GET https://api.example.com/v1/c"))
        #expect(error.message.contains("[1] GET a, [2] POST b ?x=1"))
    }

    @Test func anUnmatchedRequestCanGetA404Instead() async throws {
        let stub = StubTransport(unmatched: .notFound)
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).send(Endpoint<Empty>.get("c"))
        }
        #expect(error.status == 404)
        let body = String(decoding: error.response?.body ?? Data(), as: UTF8.self)
        #expect(body.contains("stubs: none"))
    }

    @Test func aGateHoldsTheReplyUntilOpened() async throws {
        let gate = Gate()
        let stub = StubTransport().on(.get, "slow", reply: .status(200).held(by: gate))
        let provider = makeProvider(stub)
        let task = Task { try await provider.send(Endpoint<Empty>.get("slow")).status }
        await gate.waitForArrivals(1)
        #expect(stub.requests.count == 1)
        gate.open()
        #expect(try await task.value == 200)
    }

    @Test func aDelayedReplyStillArrives() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(200).delayed(by: .milliseconds(5)))
        #expect(try await makeProvider(stub).send(Endpoint<Empty>.get("x")).status == 200)
    }

    @Test func requestsCanBeFilteredByMatcher() async throws {
        let stub = StubTransport(unmatched: .notFound).on(StubMatcher(), reply: [.status(200)])
        let provider = makeProvider(stub)
        _ = try await provider.send(Endpoint<Empty>.get("a"))
        _ = try await provider.send(Endpoint<Empty>.post("b"))
        _ = try await provider.send(Endpoint<Empty>.get("c"))
        #expect(stub.requests(matching: StubMatcher(method: .get)).map(\.url.lastPathComponent) == ["a", "c"])
        stub.reset()
        #expect(stub.requests.isEmpty)
    }
}
