import Foundation

/// The usual refresh: `POST` the refresh token to an endpoint and read an OAuth-style answer.
///
/// It sends `{"refresh_token": "…"}` as JSON (or, with `.form`,
/// `grant_type=refresh_token&refresh_token=…` as an HTML form, RFC 6749 §6), plus any extra
/// parameters, and reads `{"access_token", "refresh_token"?, "expires_in"?, "subject"?}`
/// (`expires_in` in seconds). A rotated refresh token replaces the old one; when the answer
/// has none, the old one is kept, and so is the subject.
///
/// ```swift
/// let provider = Provider(baseURL: api) { config in
///     config.tokens = FileTokenStore(directory: tokensFolder)
///     config.authenticator = RefreshTokenAuthenticator(path: "auth/refresh")
/// }
/// ```
public struct RefreshTokenAuthenticator: Authenticator {
    /// How the refresh request's body is written.
    public enum BodyEncoding: Sendable {
        /// `{"refresh_token": "…"}`.
        case json
        /// `grant_type=refresh_token&refresh_token=…`.
        case form
    }

    /// The refresh endpoint's path, relative to the provider's base URL.
    public var path: String
    /// How the body is written.
    public var encoding: BodyEncoding
    /// More body parameters (`client_id`, `scope`, …).
    public var extraParameters: [String: String]
    /// Which responses mean "not authenticated".
    public var unauthenticated: UnauthenticatedPredicate

    /// Creates the authenticator.
    ///
    /// - Parameters:
    ///   - path: the refresh endpoint's path, relative to the base URL.
    ///   - encoding: JSON (default) or an HTML form.
    ///   - extraParameters: more body parameters.
    ///   - unauthenticated: which responses mean "not authenticated"; `.standard` by default.
    public init(path: String, encoding: BodyEncoding = .json, extraParameters: [String: String] = [:],
                unauthenticated: UnauthenticatedPredicate = .standard) {
        self.path = path
        self.encoding = encoding
        self.extraParameters = extraParameters
        self.unauthenticated = unauthenticated
    }

    /// Posts the refresh token and builds the new credential.
    ///
    /// - Throws: `GatewayError` of kind `.sessionExpired` when the credential has no refresh
    ///   token; the refresh request's errors (a 400 or 401 from the endpoint is a rejection).
    public func refresh(_ credential: Credential, using client: RefreshClient) async throws -> Credential {
        guard let refreshToken = credential.refreshToken else {
            throw GatewayError(.sessionExpired, "the credential has no refresh token", fix: "sign in again")
        }
        var parameters = extraParameters
        parameters["refresh_token"] = refreshToken
        var endpoint: Endpoint<TokenResponse>
        switch encoding {
        case .json:
            endpoint = .post(path, body: parameters, encoder: .json)
        case .form:
            parameters["grant_type"] = "refresh_token"
            endpoint = .post(path, body: parameters, encoder: .form)
        }
        endpoint.decoding = .json(JSONDecodingOptions())
        endpoint.requiresAuthentication = false
        endpoint.label = "token refresh"
        let answer = try await client.value(endpoint)
        guard !answer.accessToken.isEmpty else {
            throw GatewayError(.invalidResponse, "the refresh endpoint answered an empty access token",
                               fix: "check the refresh endpoint's answer")
        }
        return Credential(
            accessToken: answer.accessToken, refreshToken: answer.refreshToken ?? refreshToken,
            expiresAt: answer.expiresIn.map { client.date.addingTimeInterval($0) },
            subject: answer.subject ?? credential.subject)
    }

    /// `unauthenticated`.
    public func isUnauthenticated(_ response: HTTPResponse, for request: HTTPRequest) -> Bool {
        unauthenticated.matches(response, for: request)
    }

    /// The refresh endpoint's answer.
    struct TokenResponse: Decodable, Sendable {
        var accessToken: String
        var refreshToken: String?
        var expiresIn: Double?
        var subject: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case refreshToken = "refresh_token"
            case expiresIn = "expires_in"
            case subject
        }
    }
}
