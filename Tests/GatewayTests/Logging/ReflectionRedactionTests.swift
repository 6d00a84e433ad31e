import Foundation
import Gateway
import GatewayTestSupport
import GatewayTesting
import GraphQLLanguage
import Testing

/// `dump()` of every value that holds a secret shows it as `<redacted>`, as `description` does.
@Suite(.quietScheduler) struct ReflectionRedactionTests {
    /// Every secret the values below hold; none may appear in a dump.
    private static let secrets = [
        "old-access-111", "old-refresh-222", "new-access-333", "new-refresh-444", "cookie-refresh-555",
        "session-cookie-666", "query-key-777", "config-bearer-888", "stage-bearer-999",
    ]

    private static func dumped(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }

    private static func expectNoSecret(in value: Any, _ what: String,
                                       sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let text = dumped(value)
        for secret in secrets {
            #expect(!text.contains(secret), "\(what) shows \(secret):\n\(text)", sourceLocation: sourceLocation)
        }
    }

    /// Records the requests and responses observers are given.
    private final class Recorder: Observer {
        let exchanges = Locked<[(HTTPRequest, HTTPResponse)]>([])
        func responseReceived(_ response: HTTPResponse, for request: HTTPRequest, context: RequestContext) {
            exchanges.withLock { $0.append((request, response)) }
        }
    }

    @Test func dumpsOfARefreshedSessionShowNoSecret() async throws {
        let refreshAnswer = #"{"access_token":"new-access-333","refresh_token":"new-refresh-444","expires_in":3600}"#
        let stub = StubTransport()
            .on(.get, "me", reply: .status(401), .json(#"{"id":1,"name":"Ada"}"#))
            .on(.post, "auth/refresh", reply: .json(refreshAnswer, headers: [
                "Set-Cookie": "refresh_token=cookie-refresh-555; HttpOnly; Secure",
            ]))
        let store = MemoryTokenStore(Credential(accessToken: "old-access-111", refreshToken: "old-refresh-222"))
        let recorder = Recorder()
        let provider = tokenProvider(stub, store: store) { config in
            config.headers["Cookie"] = "session=session-cookie-666"
            config.headers["X-Trace"] = "visible-trace"
            config.observers = [recorder]
        }
        _ = try await provider.send(Endpoint<User>.get("me", query: [URLQueryItem(name: "api_key",
                                                                                   value: "query-key-777")]))

        let exchanges = recorder.exchanges.value
        #expect(exchanges.count == 3)
        #expect(exchanges.contains { $0.1.headers["Set-Cookie"]?.contains("cookie-refresh-555") == true })
        for (request, response) in exchanges {
            Self.expectNoSecret(in: request, "HTTPRequest")
            Self.expectNoSecret(in: request.headers, "HTTPHeaders")
            Self.expectNoSecret(in: response, "HTTPResponse")
        }
        Self.expectNoSecret(in: provider, "Provider")
        Self.expectNoSecret(in: try #require(provider.tokenCoordinator), "TokenCoordinator")
        Self.expectNoSecret(in: store, "MemoryTokenStore")
        #expect(Self.dumped(provider).contains("visible-trace"))
        #expect(Self.dumped(exchanges[0].0).contains("api_key=<redacted>"))
    }

    @Test func dumpsOfAProviderWithFixedCredentialsShowNoSecret() throws {
        let provider = Provider(baseURL: URL(string: "https://user:config-bearer-888@api.example.com/")!,
                                transport: StubTransport()) { config in
            config.headers["Authorization"] = "Bearer config-bearer-888"
            config.auth = BearerTokenAuthentication(token: "stage-bearer-999")
        }
        Self.expectNoSecret(in: provider, "Provider")
        Self.expectNoSecret(in: provider.configuration, "Provider.Configuration")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-dump-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fileStore = FileTokenStore(directory: folder)
        try fileStore.save(Credential(accessToken: "old-access-111", refreshToken: "old-refresh-222"))
        Self.expectNoSecret(in: fileStore, "FileTokenStore")
    }

    @Test func endpointsAndGraphQLRequestsDumpWithoutSecrets() throws {
        let endpoint = Endpoint<User>.post("auth/refresh", body: ["refresh_token": "old-refresh-222"],
                                           query: [URLQueryItem(name: "api_key", value: "query-key-777")])
            .header("Authorization", "Bearer old-access-111")
        Self.expectNoSecret(in: endpoint, "Endpoint")
        #expect(Self.dumped(endpoint).contains("api_key=<redacted>"))

        let operation = try OperationStore(sources: [Source(
            "mutation SignIn($password: String!, $user: String!) { signIn(user: $user, password: $password) }",
            name: "SignIn.graphql")])["SignIn"]
        var options = GraphQLRequestOptions()
        options.headers["Cookie"] = "session=session-cookie-666"
        let request = try GraphQLRequest<JSONValue>(
            operation: operation, variables: ["user": "ada", "password": "config-bearer-888"], options: options)
        Self.expectNoSecret(in: request, "GraphQLRequest")
        #expect(Self.dumped(request).contains("ada"))
    }

    @Test func aRequestWithATokenInItsBodyDumpsTheBodyRedacted() {
        let request = HTTPRequest(
            method: .post, url: URL(string: "https://api.example.com/auth/refresh?api_key=query-key-777")!,
            headers: ["Content-Type": "application/json", "Authorization": "Bearer old-access-111"],
            body: .data(Data(#"{"refresh_token":"old-refresh-222","scope":"read"}"#.utf8)))
        let text = Self.dumped(request)
        Self.expectNoSecret(in: request, "HTTPRequest")
        #expect(text.contains(#"body: "{\"refresh_token\":\"<redacted>\",\"scope\":\"read\"}""#), "\(text)")
        #expect(text.contains("Authorization: <redacted>"), "\(text)")
    }
}
