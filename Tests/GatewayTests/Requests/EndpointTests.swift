import Foundation
import Gateway
import GatewayTestSupport
import GatewayTesting
import Testing

@Suite(.quietScheduler) struct EndpointTests {
    @Test func aJSONValueIsDecoded() async throws {
        let stub = StubTransport().on(.get, "users/42", reply: .json(#"{"id": 42, "name": "Ada"}"#))
        let response = try await makeProvider(stub).send(Endpoint<User>.get("users/42"))
        #expect(response.value == User(id: 42, name: "Ada"))
        #expect(response.status == 200)
        #expect(response.request.url.absoluteString == "https://api.example.com/v1/users/42")
        #expect(response.metrics.attempts == 1)
        #expect(response.metrics.bytesReceived == 25)
    }

    @Test func theEndpointTypeCanBeInferredFromTheResult() async throws {
        let stub = StubTransport().on(.get, "users/7", reply: .json(#"{"id": 7, "name": "Lin"}"#))
        let response: Response<User> = try await makeProvider(stub).send(.get("users/7"))
        #expect(response.value.id == 7)
    }

    @Test func anyMethodCanCarryABodyWithAnyEncoder() async throws {
        let stub = StubTransport().on(.put, "settings", reply: .status(204))
        let endpoint = Endpoint<Empty>.request(.put, "settings", body: ["theme": "dark mode"], encoder: .form)
        _ = try await makeProvider(stub).send(endpoint)
        #expect(stub.requests.first?.bodyText == "theme=dark+mode")
        #expect(stub.requests.first?.headers["Content-Type"] == FormParameterEncoder.contentType)
    }

    @Test func valueReturnsOnlyTheValue() async throws {
        let stub = StubTransport().on(.get, "users/1", reply: .json(#"{"id": 1, "name": "Grace"}"#))
        #expect(try await makeProvider(stub).value(Endpoint<User>.get("users/1")).name == "Grace")
    }

    @Test func aNoContentResponseDecodesAsEmpty() async throws {
        let stub = StubTransport().on(.delete, "users/42", reply: .status(204))
        let response = try await makeProvider(stub).send(Endpoint<Empty>.delete("users/42"))
        #expect(response.value == Empty())
        #expect(response.status == 204)
    }

    @Test func rawDataIsReturnedAsItArrived() async throws {
        let bytes = Data([0, 1, 2, 255, 254])
        let stub = StubTransport().on(.get, "blob", reply: .status(200, body: bytes))
        #expect(try await makeProvider(stub).value(Endpoint<Data>.get("blob")) == bytes)
    }

    @Test func anEmptyBodyForAJSONTypeSuggestsEmpty() async throws {
        let stub = StubTransport().on(.get, "users/42", reply: .status(204))
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).send(Endpoint<User>.get("users/42"))
        }
        #expect(error.kind == .decoding)
        #expect(error.message.contains("empty body"))
        #expect(error.fix?.contains("Endpoint<Empty>") == true)
    }

    @Test func aStatusErrorSaysWhatWasExpectedAndDecodesTheAPIErrorBody() async throws {
        let stub = StubTransport().on(.get, "users/42", reply: .json(#"{"code": "missing", "message": "no user 42"}"#,
                                                                     status: 404))
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).send(Endpoint<User>.get("users/42").apiError(APIProblem.self))
        }
        #expect(error.kind == .status)
        #expect(error.message == #"expected 2xx, got 404 Not Found; the server's APIProblem: "#
            + #"{"code":"missing","message":"no user 42"}"#)
        #expect(error.status == 404)
        #expect(error.apiError(as: APIProblem.self) == APIProblem(code: "missing", message: "no user 42"))
        #expect(error.endpoint == "GET users/42")
        #expect(error.request?.url.path == "/v1/users/42")
        #expect(error.description.contains(#"status: expected 2xx, got 404 Not Found; the server's APIProblem: "#
            + #"{"code":"missing","message":"no user 42"} [GET users/42]"#))
        #expect(error.fix?.contains("path") == true)
    }

    @Test func anUndecodableAPIErrorBodyIsSaidInTheMessage() async throws {
        let stub = StubTransport().on(.post, "login", reply: .text("<html>oops</html>", status: 500))
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).send(Endpoint<User>.post("login").apiError(APIProblem.self))
        }
        #expect(error.kind == .status)
        #expect(error.message.hasPrefix("expected 2xx, got 500 Internal Server Error"))
        #expect(error.message.contains("could not be decoded as APIProblem"))
        #expect(error.apiError == nil)
    }

    @Test func acceptableStatusCodesCanBeChanged() async throws {
        let stub = StubTransport().on(.get, "moved", reply: .status(304))
        let endpoint = Endpoint<Empty>.get("moved").with { $0.acceptableStatusCodes = [200, 304] }
        #expect(try await makeProvider(stub).send(endpoint).status == 304)
        let strict = Endpoint<Empty>.get("moved").with { $0.acceptableStatusCodes = StatusCodes(200..<201) }
        let error = try await #require(throws: GatewayError.self) { try await makeProvider(stub).send(strict) }
        #expect(error.message == "expected 200, got 304 Not Modified")
    }

    @Test func aDecodingErrorNamesTheCodingPathAndNotTheValues() async throws {
        struct Album: Decodable, Sendable { let tracks: [Track] }
        struct Track: Decodable, Sendable { let id: Int; let title: String }
        let body = #"{"tracks": [{"id": 1, "title": "a"}, {"id": "secret-value-123", "title": "b"}]}"#
        let stub = StubTransport().on(.get, "albums/1", reply: .json(body))
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).send(Endpoint<Album>.get("albums/1"))
        }
        #expect(error.kind == .decoding)
        #expect(error.message.contains("could not decode Album"))
        #expect(error.message.contains("tracks[1].id"))
        #expect(!error.description.contains("secret-value-123"))
    }

    @Test func aMissingKeyIsNamed() async throws {
        let stub = StubTransport().on(.get, "users/1", reply: .json(#"{"id": 1}"#))
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).send(Endpoint<User>.get("users/1"))
        }
        #expect(error.message.contains("missing key \"name\""))
    }

    @Test func aBodyThatIsNotJSONIsSaidPlainly() async throws {
        let stub = StubTransport().on(.get, "users/1", reply: .text("<html>captive portal</html>"))
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).send(Endpoint<User>.get("users/1"))
        }
        #expect(error.kind == .decoding)
        #expect(error.message.contains("not JSON"))
        #expect(error.message.contains("text/plain"))
    }

    @Test func theProvidersJSONDecodingSettingsApply() async throws {
        struct Event: Decodable, Sendable { let startsAt: Date }
        let stub = StubTransport().on(.get, "events/1", reply: .json(#"{"starts_at": "1970-01-01T00:01:00Z"}"#))
        let provider = makeProvider(stub) {
            $0.jsonDecoding = JSONDecodingOptions(dates: .iso8601, keys: .convertFromSnakeCase)
        }
        #expect(try await provider.value(Endpoint<Event>.get("events/1")).startsAt == Date(timeIntervalSince1970: 60))
    }

    @Test func queryItemsAndParametersAreSentInOrder() async throws {
        let stub = StubTransport().on(.get, "search", reply: .json("[]"))
        var endpoint = Endpoint<[User]>.get("search", parameters: ["tags": ["a b", "c"]], encoder: .query(arrays: .repeated))
        endpoint.query = [URLQueryItem(name: "z", value: "1"), URLQueryItem(name: "flag", value: nil)]
        _ = try await makeProvider(stub).send(endpoint)
        #expect(stub.requests.first?.percentEncodedQuery == "z=1&flag&tags=a%20b&tags=c")
    }

    @Test func endpointHeadersReplaceTheProvidersDefaults() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(200))
        let provider = makeProvider(stub) {
            $0.headers["Accept"] = "application/json"
            $0.headers["X-Client"] = "tests"
        }
        _ = try await provider.send(Endpoint<Empty>.get("x", headers: ["Accept": "text/csv"]))
        let headers = try #require(stub.requests.first?.headers)
        #expect(headers["Accept"] == "text/csv")
        #expect(headers.values(for: "Accept").count == 1)
        #expect(headers["X-Client"] == "tests")
        #expect(headers["User-Agent"] == "Gateway")
    }

    @Test func aHeaderWithALineBreakIsRefusedBeforeSending() async throws {
        let stub = StubTransport()
        let endpoint = Endpoint<Empty>.get("x").header("X-Note", "a\r\nInjected: yes")
        let error = try await #require(throws: GatewayError.self) { try await makeProvider(stub).send(endpoint) }
        #expect(error.kind == .invalidRequest)
        #expect(error.message.contains("X-Note"))
        #expect(!error.description.contains("Injected"))
        #expect(stub.requests.isEmpty)
    }

    @Test func aHostilePathFailsInTheBuildStageWithoutSending() async throws {
        let stub = StubTransport()
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).send(Endpoint<Empty>.get("../../admin"))
        }
        #expect(error.kind == .invalidRequest)
        #expect(error.endpoint == "GET ../../admin")
        #expect(stub.requests.isEmpty)
    }

    @Test func aTransportFailureIsAGatewayErrorWithContext() async throws {
        let stub = StubTransport().on(.get, "x", reply: .failure(URLError(.notConnectedToInternet)))
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).send(Endpoint<Empty>.get("x"))
        }
        #expect(error.kind == .transport)
        #expect(error.endpoint == "GET x")
        #expect(error.request?.url.path == "/v1/x")
        #expect(error.underlying is URLError)
    }

    @Test func timeoutsDeadlinesAndSizeLimitsReachTheRequest() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(200))
        // The defaults, whole-call deadline included, as an app gets them.
        let provider = Provider(baseURL: testBaseURL, transport: stub) {
            $0.timeout = .seconds(7)
            $0.maxResponseBytes = 1234
        }
        _ = try await provider.send(Endpoint<Empty>.get("x").with { $0.deadline = .seconds(3600) })
        let request = try #require(stub.requests.first?.request)
        #expect(request.timeout == .seconds(7))
        #expect(request.maxResponseBytes == 1234)
        let deadline = try #require(request.deadline)
        #expect(deadline > ContinuousClock.now + .seconds(1800))
        _ = try await provider.send(Endpoint<Empty>.get("x").with { $0.timeout = .seconds(2) })
        #expect(stub.requests.last?.request.timeout == .seconds(2))
        // The configuration's default deadline of 30 s.
        let defaultDeadline = try #require(stub.requests.last?.request.deadline)
        #expect(defaultDeadline <= ContinuousClock.now + .seconds(30))
    }

    @Test func anEndpointForTheBaseURLItselfIsNamedSo() {
        #expect(Endpoint<Empty>.get("").name == "GET (the base URL)")
        #expect(Endpoint<Empty>.get("users").name == "GET users")
    }

    @Test func aDeadlineThatHasPassedEndsInATimeout() async throws {
        let stub = StubTransport().on(.get, "x", reply: .status(200))
        let error = try await #require(throws: GatewayError.self) {
            try await makeProvider(stub).send(Endpoint<Empty>.get("x").with { $0.deadline = .zero })
        }
        #expect(error.kind == .timeout)
        #expect(stub.requests.isEmpty)
    }
}
