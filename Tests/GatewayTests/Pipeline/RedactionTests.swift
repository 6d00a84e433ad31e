import Foundation
import Gateway
import GatewayTesting
import Testing

@Suite struct RedactionTests {
    static let token = "tok_9f8e7d6c5b4a"

    private func dumped(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }

    private func expectNoToken(_ texts: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for text in texts {
            #expect(!text.contains(Self.token), "token found in: \(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func errorsAndRequestsNeverShowTheAuthorizationHeaderOrTokenQueryItems() async throws {
        let stub = StubTransport().on(.get, "me", reply: .json(#"{"code": "expired", "message": "token expired"}"#,
                                                               status: 401))
        let provider = makeProvider(stub) { $0.auth = .bearer(Self.token) }
        let endpoint = Endpoint<User>.get("me", query: [URLQueryItem(name: "access_token", value: Self.token)])
            .apiError(APIProblem.self)
        let error = try await #require(throws: GatewayError.self) { try await provider.send(endpoint) }
        let request = try #require(stub.requests.first?.request)
        #expect(request.headers["Authorization"] == "Bearer \(Self.token)")
        #expect(request.url.absoluteString.contains(Self.token))
        expectNoToken([
            error.description, String(reflecting: error), dumped(error), error.localizedDescription,
            request.description, dumped(request), request.headers.description, String(describing: request),
            stub.requests.first?.description ?? "",
        ])
    }

    @Test func aDecodingErrorNeverShowsTheValuesItSaw() async throws {
        let stub = StubTransport().on(.get, "session", reply: .json(#"{"id": "\#(Self.token)", "name": "x"}"#))
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).send(Endpoint<User>.get("session"))
        }
        #expect(error.kind == .decoding)
        expectNoToken([error.description, dumped(error)])
    }

    @Test func preparedRequestsAndAuthStagesNeverShowTheToken() async throws {
        let auth = BearerTokenAuthentication(token: Self.token)
        let context = RequestContext(id: RequestID(1), name: "GET me", baseURL: testBaseURL)
        let prepared = try await auth.authorize(
            PreparedRequest(name: "GET me", method: .get, url: URL(string: "https://api.example.com/v1/me?token=\(Self.token)")!,
                            parameters: [RequestParameters(["password": Self.token], encoder: .json)]),
            context: context)
        #expect(prepared.headers["Authorization"] == "Bearer \(Self.token)")
        expectNoToken([prepared.description, dumped(prepared), auth.description, dumped(auth)])
        let provider = makeProvider(StubTransport()) { $0.auth = auth }
        expectNoToken([dumped(provider.configuration)])
    }

    @Test func theUnmatchedStubMessageNeverShowsTheToken() async throws {
        let stub = StubTransport().on(.get, "other", query: .exactly(["access_token": Self.token]), reply: .status(200))
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).send(Endpoint<Empty>.get("me", query: [URLQueryItem(name: "access_token",
                                                                                            value: Self.token)]))
        }
        #expect(error.message.contains("no stub matches"))
        expectNoToken([error.description, dumped(error)])
    }
}
