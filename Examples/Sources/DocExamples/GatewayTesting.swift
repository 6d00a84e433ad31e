// The examples of Sources/GatewayTesting.
import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

/// A transport under test.
struct MyTransport: Transport {
    var timeout: Duration
    var maxRedirects: Int
    func send(_ request: HTTPRequest) async throws -> StreamedResponse {
        StreamedResponse(HTTPResponse(status: 200, body: Data(), url: request.url))
    }
}

// Gate
func gateExample(stub: StubTransport, provider: Provider) async throws {
    let gate = Gate()
    stub.on(.get, "slow", reply: .status(200).held(by: gate))
    let task = Task { try await provider.send(Endpoint<Empty>.get("slow")) }
    await gate.waitForArrivals(1)   // the request is now at the gate
    gate.open()
    _ = try await task.value
}

// ManualClock
func manualClock(api: URL, stub: StubTransport) async throws {
    let clock = ManualClock()
    let provider = Provider(baseURL: api, transport: stub) { $0.clock = clock }
    let task = Task { try await provider.send(Endpoint<Empty>.get("flaky")) }
    await clock.waitForSleeps(1)        // the pipeline is now waiting to retry
    clock.advance(by: .seconds(1))      // … and now it retries
    _ = try await task.value
}

// QueryFileChecks
@Test func queriesMatchTheSchema() {
    expectValidQueryFiles(in: "Queries", schema: "Schemas")
}

// ReceivedGraphQLRequest
func receivedGraphQLRequest() throws {
    let server = try LoopbackServer { request in
        guard let graphQL = ReceivedGraphQLRequest(request), graphQL.operationName == "GetTrack" else {
            return .status(400)
        }
        return .json(#"{"data": {"track": null}}"#)
    }
    server.shutdown()
}

// StubTransport+GraphQL
func stubGraphQL(stub: StubTransport) {
    stub.on(.graphQL("GetTrack", variables: ["id": "1"]), reply: [.graphQL(data: ["track": ["title": "One"]])])
    stub.on(.graphQL("GetTrack", variables: ["id": "2"]), reply: [.graphQL(data: ["track": nil])])
}

// StubTransport
func stubTransport() {
    let stub = StubTransport()
    stub.on(.get, "users/42", reply: .json(#"{"id": 42, "name": "Ada"}"#))
    stub.on(.post, "orders", reply: .status(401), .json(#"{"id": 7}"#, status: 201))  // 401, then 201
    stub.on(.get, "search", query: .exactly(["q": "jazz"]), reply: .json("[]").delayed(by: .milliseconds(20)))
    let provider = Provider(baseURL: URL(string: "https://api.example.com/v1/")!, transport: stub)
    // …
    #expect(stub.requests.map(\.url.path) == ["/v1/users/42"])
    _ = provider
}

// TransportConformance
@Suite struct MyTransportConformanceTests {
    @Test(arguments: TransportConformance.Check.allCases)
    func conforms(to check: TransportConformance.Check) async throws {
        try await TransportConformance { settings in
            MyTransport(timeout: settings.timeout, maxRedirects: settings.maxRedirects)
        }.run(check)
    }
}

// CompressionBomb
func compressionBomb() throws {
    let server = try LoopbackServer { _ in
        LoopbackResponse(headers: ["Content-Encoding": "gzip"], body: Data(CompressionBomb.gzip(inflatingTo: 1 << 28)))
    }
    server.shutdown()
}

// GraphQLModelCheck
@Suite struct ModelCheckOfGetTrack {
    @Test func getTrackDecodes() throws {
        let schema = try OperationStore.schema(at: URL(fileURLWithPath: "Schemas/music.graphql"))
        let operations = try OperationStore(directory: URL(fileURLWithPath: "Queries"), schema: schema)
        try expectModel(GetTrack.self, decodes: operations["GetTrack"], scalars: ["Milliseconds": 215_000])
    }
}

// expectModel(_:decodes:…), an operation
@Suite struct ModelCheckOfAnOperation {
    @Test func meDecodes() throws {
        let schema = try OperationStore.schema(at: URL(fileURLWithPath: "Schemas/music.graphql"))
        let operations = try OperationStore(directory: URL(fileURLWithPath: "Queries"), schema: schema)
        try expectModel(Me.self, decodes: operations["Me"])
    }
}

// expectModel(_:decodes:…), text
@Suite struct ModelCheckOfText {
    @Test func meDecodes() throws {
        let schema = try OperationStore.schema(at: URL(fileURLWithPath: "Schemas/music.graphql"))
        expectModel(Me.self, decodes: "query Me { me { id displayName country plan } }", schema: schema)
    }
}
