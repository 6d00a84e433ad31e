import Foundation
@testable import Gateway
import GatewayLoopback
import GatewayTestSupport
import GatewayTesting
import GraphQLLanguage
import Testing

/// `Provider.subscribe` over each HTTP protocol against the loopback server, which plays the
/// server's side of the protocols byte for byte.
@Suite(.timeLimit(.minutes(2))) struct SubscriptionTests {
    static let ticks = try? GraphQLOperation("subscription Ticks { tick }")
    struct Tick: Decodable, Sendable { let tick: Int }

    static let multipartType = #"multipart/mixed; boundary="graphql"; subscriptionSpec="1.0""#

    /// A multipart subscription body: a heartbeat, then each part, then the closing delimiter.
    static func multipart(_ parts: [String], closed: Bool = true) -> LoopbackResponse {
        let body = "\r\n--graphql\r\nContent-Type: application/json\r\n\r\n{}\r\n"
            + parts.map { "--graphql\r\nContent-Type: application/json\r\n\r\n\($0)\r\n" }.joined()
            + (closed ? "--graphql--\r\n" : "")
        return LoopbackResponse(headers: ["Content-Type": multipartType], body: Data(body.utf8), chunked: true)
    }

    static func provider(_ server: LoopbackServer, _ subscriptions: SubscriptionProtocol = .multipart,
                         configure: (inout Provider.Configuration) -> Void = { _ in }) throws -> Provider {
        Provider(baseURL: try server.url("/api/"), transport: URLSessionTransport()) { config in
            config.graphQL.subscriptions = subscriptions
            config.retryPolicy = .none
            config.deadline = nil  // it would measure the suite's queue (see makeProvider)
            configure(&config)
        }
    }

    @Test func multipartEventsAreDecodedAndHeartbeatsSkipped() async throws {
        let server = try LoopbackServer { _ in
            Self.multipart([#"{"payload":{"data":{"tick":1}}}"#, "{}", #"{"payload":{"data":{"tick":2}}}"#])
        }
        defer { server.shutdown() }

        var ticks: [Int] = []
        for try await event in try Self.provider(server).subscribe(try #require(Self.ticks), as: Tick.self) {
            ticks.append(event.data.tick)
        }

        #expect(ticks == [1, 2])
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.path == "/api/graphql")
        #expect(request.headers["Accept"] == #"multipart/mixed;subscriptionSpec="1.0", application/json"#)
        #expect(String(decoding: request.body, as: UTF8.self)
                    == #"{"query":"subscription Ticks {\n  tick\n}","operationName":"Ticks"}"#)
    }

    @Test func aMultipartTransportErrorEndsTheSubscriptionWithItsErrors() async throws {
        let server = try LoopbackServer { _ in
            Self.multipart([#"{"payload":{"data":{"tick":1}}}"#,
                            #"{"payload":null,"errors":[{"message":"the subgraph went away"}]}"#])
        }
        defer { server.shutdown() }

        var ticks: [Int] = []
        let failure = await #expect(throws: GatewayError.self) {
            for try await event in try Self.provider(server).subscribe(try #require(Self.ticks), as: Tick.self) {
                ticks.append(event.data.tick)
            }
        }
        #expect(ticks == [1])
        #expect(failure?.kind == .graphQLErrors)
        #expect(failure?.message.contains("the subgraph went away") == true)
    }

    @Test func serverSentEventsAreDecodedUntilComplete() async throws {
        let server = try LoopbackServer { _ in
            let body = ": ping\n\nevent: next\ndata: {\"data\":{\"tick\":1}}\n\n"
                + "event: next\ndata: {\"data\":{\"tick\":2}}\n\nevent: complete\ndata:\n\n"
            return LoopbackResponse(headers: ["Content-Type": "text/event-stream"], body: Data(body.utf8),
                                    chunked: true)
        }
        defer { server.shutdown() }

        var ticks: [Int] = []
        let events = try Self.provider(server, .serverSentEvents).subscribe(try #require(Self.ticks), as: Tick.self)
        for try await event in events { ticks.append(event.data.tick) }

        #expect(ticks == [1, 2])
        #expect(server.requests.first?.headers["Accept"] == "text/event-stream")
    }

    @Test func anEventStreamThatEndsWithoutCompleteIsAnError() async throws {
        let server = try LoopbackServer { _ in
            LoopbackResponse(headers: ["Content-Type": "text/event-stream"],
                             body: Data("event: next\ndata: {\"data\":{\"tick\":1}}\n\n".utf8))
        }
        defer { server.shutdown() }

        let failure = await #expect(throws: GatewayError.self) {
            for try await _ in try Self.provider(server, .serverSentEvents).subscribe(try #require(Self.ticks),
                                                                                     as: Tick.self) {}
        }
        #expect(failure?.kind == .transport)
        #expect(failure?.message.contains("ended before its complete event") == true)
    }

    @Test func anUnauthenticatedEventRefreshesOnceAndSubscribesAgain() async throws {
        let server = try LoopbackServer { request in
            if request.path.hasSuffix("/auth/refresh") {
                return .json(#"{"access_token":"at-1","refresh_token":"rt-2","expires_in":3600}"#)
            }
            guard request.headers["Authorization"] == "Bearer at-1" else {
                let refused = #"{"message":"expired","extensions":{"code":"UNAUTHENTICATED"}}"#
                return Self.multipart([#"{"payload":{"data":null,"errors":["# + refused + "]}}"])
            }
            return Self.multipart([#"{"payload":{"data":{"tick":7}}}"#])
        }
        defer { server.shutdown() }
        let provider = try Self.provider(server) { config in
            config.tokens = MemoryTokenStore(Credential(accessToken: "old", refreshToken: "rt-1"))
            config.authenticator = RefreshTokenAuthenticator(path: "auth/refresh")
        }

        var ticks: [Int] = []
        for try await event in provider.subscribe(try #require(Self.ticks), as: Tick.self) {
            ticks.append(event.data.tick)
            #expect(event.request?.headers["Authorization"] == "Bearer at-1")
        }

        #expect(ticks == [7])
        #expect(server.requests.map(\.path) == ["/api/graphql", "/api/auth/refresh", "/api/graphql"])
    }

    @Test func aRefusedOpeningIsRefreshedAndReplayedByThePipeline() async throws {
        let server = try LoopbackServer { request in
            if request.path.hasSuffix("/auth/refresh") {
                return .json(#"{"access_token":"at-1","refresh_token":"rt-2","expires_in":3600}"#)
            }
            guard request.headers["Authorization"] == "Bearer at-1" else { return .status(401) }
            return Self.multipart([#"{"payload":{"data":{"tick":3}}}"#])
        }
        defer { server.shutdown() }
        let provider = try Self.provider(server) { config in
            config.tokens = MemoryTokenStore(Credential(accessToken: "old", refreshToken: "rt-1"))
            config.authenticator = RefreshTokenAuthenticator(path: "auth/refresh")
        }

        var ticks: [Int] = []
        for try await event in provider.subscribe(try #require(Self.ticks), as: Tick.self) {
            ticks.append(event.data.tick)
        }
        #expect(ticks == [3])
        #expect(server.requests.map(\.path) == ["/api/graphql", "/api/auth/refresh", "/api/graphql"])
    }

    @Test func aGeneratedSubscriptionDecodesItsData() async throws {
        let server = try LoopbackServer { request in
            Self.multipart([#"{"payload":{"data":{"tick":5}}}"#])
        }
        defer { server.shutdown() }

        var ticks: [Int] = []
        for try await event in try Self.provider(server).subscribe(TicksSubscription(every: 2)) {
            ticks.append(event.data.tick)
        }

        #expect(ticks == [5])
        let body = String(decoding: try #require(server.requests.first).body, as: UTF8.self)
        #expect(body.contains(#""variables":{"every":2}"#))
    }

    @Test func aQueryIsNotSubscribedToAndASubscriptionIsNotFetched() async throws {
        let provider = Provider(baseURL: testBaseURL, transport: StubTransport())
        let query = try GraphQLOperation("query Now { now }")

        let refused = await #expect(throws: GatewayError.self) {
            for try await _ in provider.subscribe(query, as: JSONValue.self) {}
        }
        #expect(refused?.kind == .invalidRequest)
        let notFetched = await #expect(throws: GatewayError.self) {
            _ = try await provider.fetch(try #require(Self.ticks), as: JSONValue.self)
        }
        #expect(notFetched?.fix?.contains("Provider.subscribe") == true)
    }
}

/// A subscription type as `gateway generate` writes one.
struct TicksSubscription: GraphQLSubscription {
    static let definition = GraphQLOperationDefinition(
        name: "Ticks", kind: .subscription, text: "subscription Ticks($every: Int!) {\n  tick(every: $every)\n}",
        normalizedText: "subscription Ticks($every:Int!){tick(every:$every)}",
        textHash: "not used", normalizedTextHash: "not used")
    var every: Int
    struct Data: Decodable, Sendable { let tick: Int }
}
