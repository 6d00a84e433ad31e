import Foundation
import Gateway
@testable import GatewayDemoBackend
import GatewayTestSupport
import GatewayTesting
import GraphQLLanguage
import Testing

/// The example backend's REST side and its tokens, through a `Provider` and the real transport.
@Suite(.quietScheduler) final class DemoBackendTests {
    let backend: ExampleBackend
    let provider: Provider

    init() throws {
        backend = try ExampleBackend(schema: try DemoFixture.schema())
        provider = Provider(baseURL: backend.baseURL, transport: URLSessionTransport(timeout: .seconds(10))) { config in
            config.jsonEncoding = JSONEncodingOptions(keys: .convertToSnakeCase)
            config.jsonDecoding = JSONDecodingOptions(keys: .convertFromSnakeCase)
            config.deadline = .seconds(20)
        }
    }

    deinit { backend.shutdown() }

    /// The API error code and status of a call that must fail.
    private func failure<Value>(_ endpoint: Endpoint<Value>) async throws -> (status: Int?, code: String?) {
        let error = try await #require(throws: GatewayError.self) {
            try await provider.send(endpoint.apiError(ExampleAPI.ErrorBody.self))
        }
        return (error.status, error.apiError(as: ExampleAPI.ErrorBody.self)?.error.code)
    }

    private func login() async throws -> ExampleAPI.Session {
        try await provider.value(Endpoint<ExampleAPI.Session>.post(
            "auth/login", body: ExampleAPI.Login(username: ExampleBackend.username, password: ExampleBackend.password)))
    }

    private func bearer<Value>(_ endpoint: Endpoint<Value>, _ token: String) -> Endpoint<Value> {
        endpoint.header("Authorization", "Bearer \(token)")
    }

    /// A GraphQL `Me` query with `token`, answered as JSON.
    private func me(token: String) async throws -> (status: Int, body: JSONValue) {
        let response = try await provider.send(Endpoint<Data>.post(
            "graphql", body: ["query": "{ me { id } }"]).header("Authorization", "Bearer \(token)"))
        return (response.status, try JSONValue(parsing: [UInt8](response.value)))
    }

    @Test func loginAnswersAShortLivedSessionInSnakeCase() async throws {
        let response = try await provider.send(Endpoint<Data>.post(
            "auth/login", body: ExampleAPI.Login(username: ExampleBackend.username, password: ExampleBackend.password)))
        let object = try #require(try JSONSerialization.jsonObject(with: response.value) as? [String: Any])
        #expect(Set(object.keys) == ["access_token", "refresh_token", "expires_in", "subject"])
        #expect(object["expires_in"] as? Int == 300)
        #expect(object["subject"] as? String == ExampleBackend.subject)
        #expect(backend.loginCount == 1)
    }

    @Test func aWrongPasswordOrABadBodyIsRefused() async throws {
        #expect(try await failure(Endpoint<ExampleAPI.Session>.post(
            "auth/login", body: ExampleAPI.Login(username: "demo", password: "nope"))) == (401, "invalid_credentials"))
        #expect(try await failure(Endpoint<ExampleAPI.Session>.post(
            "auth/login", body: "not json", encoder: .raw(contentType: "text/plain"))) == (400, "bad_request"))
        #expect(backend.loginCount == 0)
    }

    @Test func aRefreshRotatesTheTokensAndAcceptsEachRefreshTokenOnce() async throws {
        let session = try await login()
        let refresh = Endpoint<ExampleAPI.Session>.post(
            "auth/refresh", body: ExampleAPI.Refresh(refreshToken: session.refreshToken))
        let renewed = try await provider.value(refresh)
        #expect(renewed.accessToken != session.accessToken)
        #expect(renewed.refreshToken != session.refreshToken)
        #expect(try await failure(refresh) == (401, "invalid_grant"))
        #expect(backend.refreshCount == 1)
        _ = try await provider.value(Endpoint<ExampleAPI.Session>.post(
            "auth/refresh", body: ExampleAPI.Refresh(refreshToken: renewed.refreshToken)))
        #expect(backend.refreshCount == 2)
    }

    @Test func expiringTheTokensRefusesThemOverRESTAndGraphQLUntilARefresh() async throws {
        let session = try await login()
        let profile = Endpoint<ExampleAPI.Profile>.get("me")
        #expect(try await provider.value(bearer(profile, session.accessToken)).likedCount == 2)
        #expect(try await me(token: session.accessToken).body["data"]?["me"]?["id"] == "listener-1")

        #expect(backend.expireAccessTokens() == 1)
        #expect(try await failure(bearer(profile, session.accessToken)) == (401, "token_expired"))
        let refused = try await me(token: session.accessToken)
        #expect(refused.status == 200)
        #expect(refused.body["data"] == nil)
        #expect(refused.body["errors"]?[0]?["extensions"]?["code"] == "UNAUTHENTICATED")

        let renewed = try await provider.value(Endpoint<ExampleAPI.Session>.post(
            "auth/refresh", body: ExampleAPI.Refresh(refreshToken: session.refreshToken)))
        #expect(try await provider.value(bearer(profile, renewed.accessToken)).id == "listener-1")
        #expect(try await me(token: renewed.accessToken).body["errors"] == nil)
        #expect(backend.expireAccessTokens() == 1, "only the renewed token was still live")
    }

    @Test func aTrackIsServedCacheablyAndAnUnknownOneIsA404() async throws {
        let response = try await provider.send(Endpoint<ExampleAPI.Track>.get("tracks/6"))
        #expect(response.value.title == "Signal")
        #expect(response.value.artists.map(\.name) == ["Northbound Static", "The Lumens"])
        #expect(response.httpResponse.headers["Cache-Control"] == "max-age=60")
        #expect(try await failure(Endpoint<ExampleAPI.Track>.get("tracks/999")) == (404, "not_found"))
        #expect(try await failure(Endpoint<ExampleAPI.Track>.get("tracks/1/lyrics")) == (404, "not_found"))
    }

    @Test func theStreamURLNeedsALiveBearerTokenAndIsNeverStored() async throws {
        let stream = Endpoint<ExampleAPI.StreamLink>.get("tracks/1/stream")
        #expect(try await failure(stream) == (401, "unauthorized"))
        #expect(try await failure(bearer(stream, "made-up")) == (401, "invalid_token"))
        let session = try await login()
        let response = try await provider.send(bearer(stream, session.accessToken))
        #expect(response.value.url.hasPrefix(backend.baseURL.absoluteString + "media/1.m4a"))
        #expect(response.httpResponse.headers["Cache-Control"] == "no-store")
    }

    @Test func searchFiltersByTextAndKinds() async throws {
        let all = try await provider.value(Endpoint<ExampleAPI.SearchResults>.get("search", parameters: ["q": "LIGHT"]))
        #expect(all.results.map(\.name) == ["Streetlight Hymn", "Lights Out", "Night Lights"])
        let releases = try await provider.value(Endpoint<ExampleAPI.SearchResults>.get(
            "search", parameters: ExampleAPI.SearchQuery(q: "light", kinds: ["release"])))
        #expect(releases.results.map(\.kind) == ["release"])
        #expect(try await failure(Endpoint<ExampleAPI.SearchResults>.get("search")) == (400, "missing_query"))
        #expect(try await failure(Endpoint<ExampleAPI.SearchResults>.get(
            "search", parameters: ExampleAPI.SearchQuery(q: "a", kinds: ["podcast"]))) == (400, "invalid_kind"))
    }
}
