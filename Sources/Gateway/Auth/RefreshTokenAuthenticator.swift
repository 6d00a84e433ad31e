import Foundation

/// The usual refresh: `POST` the refresh token to an endpoint and read an OAuth-style answer.
///
/// It sends `{"refresh_token": "…"}` as JSON (or, with `.form`,
/// `grant_type=refresh_token&refresh_token=…` as an HTML form, RFC 6749 §6), plus any extra
/// parameters, and reads the standard answer (`OAuthTokenResponse`: `access_token`,
/// `refresh_token`?, `expires_in`? in seconds, …) plus a `subject` some servers add. A rotated
/// refresh token replaces the old one; when the answer has none, the old one is kept, and so is
/// the subject.
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
    @concurrent public func refresh(_ credential: Credential, using client: RefreshClient) async throws -> Credential {
        guard let refreshToken = credential.refreshToken else {
            throw GatewayError(.sessionExpired, "the credential has no refresh token", fix: "sign in again")
        }
        var parameters = extraParameters
        parameters["refresh_token"] = refreshToken
        var endpoint: Endpoint<RefreshAnswer>
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
        var renewed = answer.tokens.credential(subject: answer.subject ?? credential.subject, now: client.date)
        renewed.refreshToken = renewed.refreshToken ?? refreshToken
        return renewed
    }

    /// `unauthenticated`.
    public func isUnauthenticated(_ response: HTTPResponse, for request: HTTPRequest) -> Bool {
        unauthenticated.matches(response, for: request)
    }

    /// The refresh endpoint's answer: RFC 6749 §5.1, and the `subject` some servers add.
    struct RefreshAnswer: Decodable, Sendable {
        var tokens: OAuthTokenResponse
        var subject: String?

        init(from decoder: any Decoder) throws {
            tokens = try OAuthTokenResponse(from: decoder)
            let container = try decoder.container(keyedBy: OAuthTokenResponse.FieldKey.self)
            subject = try container.decodeIfPresent(String.self, forKey: .init(stringValue: "subject"))
        }
    }
}
