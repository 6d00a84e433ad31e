import Foundation
import Gateway
import GatewayTestSupport
import GatewayTesting
import GraphQLLanguage
import Testing

/// What `print(error)` says: the server's declared error body, HTML pages named as such, one fix,
/// and no stray punctuation or internal type names.
@Suite(.quietScheduler) struct ErrorDescriptionTests {
    private struct Login: Encodable, Sendable {
        var user = "ada"
        var password = "hunter2"
    }

    private struct Session: Decodable, Sendable {
        var token: String
    }

    private func failure<Value>(_ endpoint: Endpoint<Value>, _ reply: StubReply) async throws -> GatewayError {
        let stub = StubTransport().on(endpoint.method, .any, reply: reply)
        return try await #require(throws: GatewayError.self) {
            _ = try await makeProvider(stub) { $0.retryPolicy = .none }.send(endpoint)
        }
    }

    @Test func aDeclaredErrorBodyIsSummarisedRedactedAndBounded() async throws {
        let body = #"{"code":"taken","message":"the name is taken","access_token":"sekrit-123"}"#
        let error = try await failure(Endpoint<User>.post("users", body: ["name": "Ada"]).apiError(APIProblem.self),
                                      .json(body, status: 422))
        #expect(error.apiError(as: APIProblem.self) == APIProblem(code: "taken", message: "the name is taken"))
        let summary = #"{"code":"taken","message":"the name is taken","access_token":"<redacted>"}"#
        #expect(error.description.contains(summary), "\(error)")
        #expect(!error.description.contains("sekrit-123"))

        let long = String(repeating: "x", count: 2_000)
        let longError = try await failure(Endpoint<User>.get("users").apiError(APIProblem.self),
                                          .json(#"{"code":"c","message":"\#(long)"}"#, status: 400))
        #expect(longError.description.contains(#"{"code":"c","message":"xxx"#), "\(longError)")
        #expect(longError.description.contains("x…"))
        #expect(!longError.description.contains(String(repeating: "x", count: 300)))
    }

    @Test func aRefusedLoginSaysWhatTheServerSaidAndHowToFixIt() async throws {
        let login = Endpoint<Session>.post("auth/login", body: Login()).apiError(APIProblem.self)
            .with { $0.requiresAuthentication = false }
        let error = try await failure(
            login, .json(#"{"code":"invalid_grant","message":"wrong user name or password"}"#, status: 401))
        let text = "\(error)"
        #expect(text.contains("got 401 Unauthorized"), "\(text)")
        #expect(text.contains(#""code":"invalid_grant","message":"wrong user name or password""#), "\(text)")
        #expect(text.contains("Fix: check the credentials the request sends"), "\(text)")
        #expect(!text.contains("hunter2"))
    }

    @Test func anHTMLBodyOnAFailedStatusIsNamedAsHTML() async throws {
        let page = StubReply.text("<html><body><h1>502 Bad Gateway</h1></body></html>", status: 502,
                                  headers: ["Content-Type": "text/html"])
        let plain = try await failure(Endpoint<User>.get("users/1"), page)
        #expect(plain.description.contains("got 502 Bad Gateway; the body is an HTML page, not JSON"), "\(plain)")
        let declared = try await failure(Endpoint<User>.get("users/1").apiError(APIProblem.self), page)
        #expect(declared.description.contains("got 502 Bad Gateway; the body is an HTML page, not JSON"))
        #expect(declared.description.contains("or a wrong URL), so it could not be decoded as APIProblem"),
                "\(declared)")
    }

    /// Errors from across the library, each as a user would print it.
    private func representativeErrors() async throws -> [GatewayError] {
        var errors: [GatewayError] = []
        let store = try GraphQLFixtures.store()
        func caught(_ body: () async throws -> Void) async {
            do { try await body() } catch let error as GatewayError { errors.append(error) } catch {}
        }
        await caught { _ = try store["GetTrak"] }
        await caught { _ = try GraphQLRequest<JSONValue>(operation: try store["GetTrack"], variables: ["idd": 1]) }
        await caught { _ = try OperationStore(sources: [Source("query { track(", name: "Broken.graphql")]) }
        await caught { _ = try GraphQLVariables(parsing: "{") }
        errors.append(try await failure(Endpoint<User>.get("users/1"), .status(404)))
        errors.append(try await failure(Endpoint<User>.get("users/1"), .json(#"{"id": "one"}"#)))
        errors.append(try await failure(Endpoint<User>.get("users/1"),
                                        .text("<!doctype html><p>Sign in</p>", status: 502)))
        let stub = StubTransport()
        stub.onGraphQL("Me", reply: .text("<!doctype html><p>Sign in</p>", status: 502))
        await caught { _ = try await makeProvider(stub).fetch(store["Me"], as: JSONValue.self) }
        let inner = GatewayError(.timeout, "no answer within 5 s", fix: "raise the timeout")
        errors.append(GatewayError(.transport, "the request failed", fix: "check the network", underlying: inner))
        errors.append(GatewayError(.transport, "the request failed", underlying: inner))
        errors.append(GatewayError(.unknownOperation, "no operation \"GetBook\"; did you mean \"GetBooks\"?",
                                   fix: "use one of the names the store has"))
        return errors
    }

    @Test func descriptionsHaveOneFixAndNoStrayPunctuationOrTypeNames() async throws {
        let errors = try await representativeErrors()
        #expect(errors.count == 11)
        for error in errors {
            let text = error.description
            #expect(text.components(separatedBy: "Fix:").count <= 2, "\(text)")
            #expect(!text.contains("?."), "\(text)")
            #expect(!text.contains(".."), "\(text)")
            #expect(!text.contains("underlying: GraphQL"), "\(text)")
        }
        let decoding = try #require(errors.first { $0.kind == .decoding })
        #expect(decoding.description.components(separatedBy: "expected Int at id").count == 2, "\(decoding)")
    }

    @Test func anInnerFixIsGivenOnceAndOnlyWhenTheOuterErrorHasNone() {
        let inner = GatewayError(.timeout, "no answer within 5 s", fix: "raise the timeout")
        let outer = GatewayError(.transport, "the request failed", fix: "check the network", underlying: inner)
        #expect(outer.description
            == "transport: the request failed; underlying: timeout: no answer within 5 s. Fix: check the network")
        let bare = GatewayError(.transport, "the request failed", underlying: inner)
        #expect(bare.description
            == "transport: the request failed; underlying: timeout: no answer within 5 s. Fix: raise the timeout")
        let question = GatewayError(.unknownOperation, "no operation \"GetBook\"; did you mean \"GetBooks\"?",
                                    fix: "use one of the names the store has")
        #expect(question.description.hasSuffix(#"did you mean "GetBooks"? Fix: use one of the names the store has"#))
    }
}
