import Foundation
@testable import Gateway
import GatewayTestSupport
import GatewayTesting
import Testing

/// Descriptions and `dump()` of requests and errors, from every way a request can fail.
@Suite(.quietScheduler) struct SecretsInDescriptionsTests {
    static let token = "tokA1b2C3d4E5secret"

    private func texts(of value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [dumped, String(describing: value), String(reflecting: value)]
    }

    private func expectNoToken(_ value: Any, sourceLocation: SourceLocation = #_sourceLocation) {
        for text in texts(of: value) {
            #expect(!text.contains(Self.token), "token found in: \(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func errorsFromEveryStageCarryNoToken() async throws {
        let token = Self.token
        let server = try LoopbackServer { request in
            switch request.path {
            case "/denied": return .json(#"{"error": "bad \#(token)"}"#, status: 401, headers: ["Set-Cookie": "s=\(token)"])
            case "/busy": return .status(503, headers: ["Retry-After": "120"])
            case "/slow": return LoopbackResponse.status(200).with(fault: .delayHeaders(.seconds(2)))
            case "/reset": return LoopbackResponse.status(200).with(fault: .resetConnection)
            case "/garbled": return .json(#"{"id": "\#(token)"}"#)
            default: return .status(404)
            }
        }
        defer { server.shutdown() }
        let provider = Provider(baseURL: server.baseURL, transport: URLSessionTransport()) {
            $0.auth = .bearer(token)
            $0.retryPolicy = RetryPolicy(maxRetries: 1, initialDelay: .milliseconds(1))
            $0.deadline = .seconds(30)
        }
        let query = [URLQueryItem(name: "access_token", value: token), URLQueryItem(name: "clientSecret", value: token)]
        var errors: [GatewayError] = []
        for path in ["denied", "busy", "reset", "garbled"] {
            do {
                _ = try await provider.send(Endpoint<User>.get(path, query: query, headers: ["Cookie": "id=\(token)"]))
            } catch let error as GatewayError {
                errors.append(error)
            }
        }
        do {
            _ = try await provider.send(Endpoint<Empty>.get("slow", query: query).with { $0.timeout = .milliseconds(200) })
        } catch let error as GatewayError {
            errors.append(error)
        }
        do {
            let closed = Provider(baseURL: try #require(URL(string: "http://127.0.0.1:9/"))) { $0.auth = .bearer(token) }
            _ = try await closed.send(Endpoint<Empty>.post("login", body: ["password": token], query: query))
        } catch let error as GatewayError {
            errors.append(error)
        }
        #expect(Set(errors.map(\.kind)) == [.status, .timeout, .transport, .decoding])
        #expect(errors.count == 6)
        for error in errors {
            expectNoToken(error)
            expectNoToken(error.localizedDescription)
            if let request = error.request { expectNoToken(request) }
        }
        #expect(server.requests.contains { $0.headers["Authorization"] == "Bearer \(token)" })
    }

    @Test func requestsContextsAndMetricsCarryNoToken() async throws {
        let token = Self.token
        let stub = StubTransport().on(.post, "login", reply: .json("{}"))
        let provider = makeProvider(stub) { $0.auth = .bearer(token) }
        let endpoint = Endpoint<Data>.post("login", body: ["password": token],
                                           query: [URLQueryItem(name: "token", value: token)])
            .header("X-API-Key", token)
        let response = try await provider.send(endpoint)
        expectNoToken(response.request)
        expectNoToken(response.metrics)
        let prepared = try await BearerTokenAuthentication(token: token).authorize(
            try endpoint.prepare(baseURL: testBaseURL),
            context: RequestContext(id: RequestID(1), name: endpoint.name, baseURL: testBaseURL))
        expectNoToken(prepared)
        expectNoToken(provider.configuration.auth)
        expectNoToken(Endpoint<Data>.get("https://ada:\(token)@api.example.com/").with { $0.pathOptions = .allowAbsoluteURL }.name)
    }
}
