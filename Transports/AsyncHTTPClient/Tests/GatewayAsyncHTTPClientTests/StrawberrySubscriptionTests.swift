import Foundation
import Gateway
import GatewayAsyncHTTPClient
import GatewayTesting
import Testing

/// `GraphQLWebSocketClient` on `NIOWebSocketTransport` against strawberry-graphql over
/// graphql-transport-ws.
@Suite(.requiresStrawberry) struct StrawberrySubscriptionTests {
    func endpoint() async throws -> URL { try #require(try await PythonPeer.strawberry.value).url("/graphql") }

    /// Runs `query` once over a socket of its own and returns its result's text.
    func query(_ query: String, at url: URL) async throws -> String {
        let client = GraphQLWebSocketClient(url: url, transport: NIOWebSocketTransport())
        for try await result in client.subscribe(.init(query: query)) {
            return String(decoding: result, as: UTF8.self)
        }
        throw PythonPeer.Failure(description: "the query \(query) had no result")
    }

    @Test func aThousandEventsArriveInOrder() async throws {
        let url = try await endpoint()
        let client = GraphQLWebSocketClient(url: url, transport: NIOWebSocketTransport())
        var received: [String] = []
        for try await result in client.subscribe(.init(query: "subscription Count($to: Int!) { count(to: $to) }",
                                                       operationName: "Count", variables: ["to": .number(.init(1000))])) {
            received.append(String(decoding: result, as: UTF8.self))
        }
        #expect(received.count == 1000)
        #expect(received == (1...1000).map { #"{"data":{"count":\#($0)}}"# })
    }

    @Test func endingTheConsumerSendsCompleteToTheServer() async throws {
        let url = try await endpoint()
        let token = "cancel-\(UUID().uuidString)"
        let provider = Provider(baseURL: URL(string: "https://api.example.com")!, transport: StubTransport()) {
            $0.tokens = MemoryTokenStore(Credential(accessToken: token))
        }
        let client = GraphQLWebSocketClient(url: url, transport: NIOWebSocketTransport(), provider: provider)
        var received = 0
        for try await _ in client.subscribe(.init(query: "subscription { count(to: 1000000) }")) {
            received += 1
            if received == 3 { break }
        }
        // The server's `completes` waits until a `complete` arrived on the socket of this token.
        let completes = try await query(#"{ completes(token: "\#(token)") }"#, at: url)
        #expect(completes == #"{"data":{"completes":["1"]}}"#)
    }

    @Test func aCloseWith4401RefreshesTheCredentialOnceAndResubscribes() async throws {
        let url = try await endpoint()
        let stub = StubTransport()
        stub.on(.post, "auth/refresh", reply: .json(#"{"access_token":"new","refresh_token":"rt-2","expires_in":3600}"#))
        let provider = Provider(baseURL: URL(string: "https://api.example.com")!, transport: stub) {
            $0.tokens = MemoryTokenStore(Credential(accessToken: "old", refreshToken: "rt-1"))
            $0.authenticator = RefreshTokenAuthenticator(path: "auth/refresh")
        }
        let client = GraphQLWebSocketClient(url: url, transport: NIOWebSocketTransport(), provider: provider)
        var received: [String] = []
        for try await result in client.subscribe(.init(query: "subscription { count(to: 5, expireAfter: 2) }")) {
            received.append(String(decoding: result, as: UTF8.self))
        }
        // Two results on the socket the server closed with 4401, then all five on the new one.
        #expect(received == [1, 2, 1, 2, 3, 4, 5].map { #"{"data":{"count":\#($0)}}"# })
        #expect(stub.requests.filter { $0.url.path.hasSuffix("auth/refresh") }.count == 1)
        // Other tests' sockets run at the same time: the old token came before the new one.
        let inits = try await query("{ inits }", at: url)
        let old = try #require(inits.range(of: #""Bearer old""#))
        let new = try #require(inits.range(of: #""Bearer new""#))
        #expect(old.upperBound <= new.lowerBound)
    }
}
