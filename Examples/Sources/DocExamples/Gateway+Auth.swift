// The examples of Sources/Gateway/Auth.
import Foundation
import Gateway

// AuthEventObserver
func purgeOnLogout(api: URL, store: any TokenStore, cache: ResponseCache) {
    struct PurgeOnLogout: AuthEventObserver {
        let cache: ResponseCache
        func loggedOut(subject: String?) async {
            _ = try? await cache.purge(partition: CachePartition(subject: subject))
        }
    }
    let provider = Provider(baseURL: api) { config in
        config.tokens = store
        config.authObservers = [PurgeOnLogout(cache: cache)]
    }
    _ = provider
}

// AuthStage
enum AuthStageExample {
    struct APIKeyAuth: AuthStage {
        let key: String
        func authorize(_ request: PreparedRequest, context: RequestContext) async throws -> PreparedRequest {
            guard request.requiresAuthentication, Origin(request.url) == Origin(context.baseURL) else { return request }
            var request = request
            request.headers["X-API-Key"] = key
            return request
        }
    }
}

// Authenticator
enum AuthenticatorExample {
    struct MyAuthenticator: Authenticator {
        func refresh(_ credential: Credential, using client: RefreshClient) async throws -> Credential {
            guard let token = credential.refreshToken else { throw MyError.noRefreshToken }
            let session = try await client.value(Endpoint<Session>.post("auth/refresh", body: ["refresh_token": token]))
            return Credential(accessToken: session.accessToken, refreshToken: session.refreshToken,
                              expiresIn: .seconds(session.expiresIn), subject: credential.subject, now: client.date)
        }
    }
}

// ClosureAuthenticator
func closureAuthenticator(config: inout Provider.Configuration) {
    config.authenticator = .refresh { credential, client in
        let body = ["refresh_token": credential.refreshToken]
        let session = try await client.value(Endpoint<Session>.post("auth/refresh", body: body))
        return Credential(accessToken: session.accessToken, refreshToken: session.refreshToken)
    }
}

// Credential
func saveCredential(provider: Provider, session: Session) async throws {
    let credential = Credential(accessToken: session.accessToken, refreshToken: session.refreshToken,
                                expiresIn: .seconds(session.expiresIn), subject: session.userID)
    try await provider.tokenCoordinator?.save(credential)
}

// FileTokenStore
func fileTokenStore(api: URL) throws {
    let support = try FileManager.default.url(for: .applicationSupportDirectory, in: .userDomainMask,
                                              appropriateFor: nil, create: true)
    let provider = Provider(baseURL: api) { config in
        config.tokens = FileTokenStore(directory: support.appendingPathComponent("Tokens"))
    }
    _ = provider
}

#if canImport(Security)
// KeychainTokenStore
func keychainTokenStore(config: inout Provider.Configuration) {
    config.tokens = KeychainTokenStore(service: "com.example.app.tokens")
}
#endif

// RefreshTokenAuthenticator
func refreshTokenAuthenticator(api: URL, tokensFolder: URL) {
    let provider = Provider(baseURL: api) { config in
        config.tokens = FileTokenStore(directory: tokensFolder)
        config.authenticator = RefreshTokenAuthenticator(path: "auth/refresh")
    }
    _ = provider
}

// TokenCoordinator
func signInAndOut(api: URL, tokensFolder: URL, login: Login) async throws {
    let provider = Provider(baseURL: api) { config in
        config.tokens = FileTokenStore(directory: tokensFolder)
        config.authenticator = RefreshTokenAuthenticator(path: "auth/refresh")
    }
    let answer = try await provider.value(Endpoint<OAuthTokenResponse>.post("auth/login", body: login)
        .withoutAuthentication())
    try await provider.tokenCoordinator?.save(answer.credential(subject: login.username))
    // … requests that need the credential …
    try await provider.logout()
}

// TokenCoordinator.save
func signIn(provider: Provider, login: Login) async throws {
    let answer = try await provider.value(Endpoint<OAuthTokenResponse>.post("auth/login", body: login)
        .withoutAuthentication())
    try await provider.tokenCoordinator?.save(answer.credential(subject: login.username))
}

// OAuthTokenResponse
func oauthSignIn(provider: Provider, name: String, password: String) async throws {
    let answer = try await provider.value(
        Endpoint<OAuthTokenResponse>.post("auth/login", body: ["username": name, "password": password])
            .withoutAuthentication())
    try await provider.tokenCoordinator?.save(answer.credential(subject: name))
}

enum OAuthTokenResponseExample {
    struct SignIn: Decodable {
        var tokens: OAuthTokenResponse
        var userID: String
        init(from decoder: any Decoder) throws {
            tokens = try OAuthTokenResponse(from: decoder)
            userID = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .userID)
        }
        enum Keys: String, CodingKey { case userID = "user_id" }
    }
}

func oauthCredential(answer: OAuthTokenResponse) {
    let credential = answer.credential(subject: "user-42", now: Date())
    _ = credential
}

// TokenStore
enum TokenStoreExample {
    final class DefaultsTokenStore: TokenStore {
        func load() throws -> Credential? {
            guard let data = UserDefaults.standard.data(forKey: "credential") else { return nil }
            return try JSONDecoder().decode(Credential.self, from: data)
        }
        func save(_ credential: Credential) throws {
            UserDefaults.standard.set(try JSONEncoder().encode(credential), forKey: "credential")
        }
        func clear() throws { UserDefaults.standard.removeObject(forKey: "credential") }
    }
}

// UnauthenticatedPredicate
enum UnauthenticatedPredicateExample {
    struct MyAuthenticator: Authenticator {
        func isUnauthenticated(_ response: HTTPResponse, for request: HTTPRequest) -> Bool {
            UnauthenticatedPredicate.status(401, 419).or(.graphQLErrorCode("AUTH_REQUIRED"))
                .matches(response, for: request)
        }
        // …
    }
}

extension UnauthenticatedPredicateExample.MyAuthenticator {
    func refresh(_ credential: Credential, using client: RefreshClient) async throws -> Credential { credential }
}

func graphQLUnauthenticated(config: inout Provider.Configuration) {
    config.graphQL.unauthenticated = .code("TOKEN_EXPIRED")
    let authenticator = RefreshTokenAuthenticator(
        path: "auth/refresh", unauthenticated: .status(401).or(.graphQLErrors(.code("TOKEN_EXPIRED"))))
    config.authenticator = authenticator
}
