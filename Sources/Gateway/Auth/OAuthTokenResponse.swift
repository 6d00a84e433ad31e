import Foundation

/// The answer of an OAuth 2 token endpoint (RFC 6749 §5.1) to a sign-in or a refresh, which
/// becomes the `Credential` the token coordinator keeps.
///
/// ```swift
/// let answer = try await provider.value(
///     Endpoint<OAuthTokenResponse>.post("auth/login", body: ["username": name, "password": password])
///         .withoutAuthentication())
/// try await provider.tokenCoordinator?.save(answer.credential(subject: name))
/// ```
///
/// It reads `access_token` (required, not empty), `token_type`, `expires_in` (seconds: a number,
/// or a numeric string as some servers send it), `refresh_token` and `scope` (a space-separated
/// string, or a list of strings), whether the provider decodes keys as they are or with
/// `.convertFromSnakeCase`; other fields are left alone. A server that sends more (the user's
/// id, say) is read beside it:
/// ```swift
/// struct SignIn: Decodable {
///     var tokens: OAuthTokenResponse
///     var userID: String
///     init(from decoder: any Decoder) throws {
///         tokens = try OAuthTokenResponse(from: decoder)
///         userID = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .userID)
///     }
///     enum Keys: String, CodingKey { case userID = "user_id" }
/// }
/// ```
/// Gateway sends the access token as a bearer token (`Authorization: Bearer …`), which is what
/// `token_type` says almost always; check `tokenType` if your server issues other kinds. Neither
/// `description` nor `dump()` shows a token.
public struct OAuthTokenResponse: Decodable, Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The token sent with requests.
    public var accessToken: String
    /// The kind of token (`Bearer`), when the server says.
    public var tokenType: String?
    /// How long the access token lives from the moment the answer was received, when the
    /// server says.
    public var expiresIn: Duration?
    /// The token that renews the access token, when the server issued one.
    public var refreshToken: String?
    /// The scopes granted, space-separated, when the server says.
    public var scope: String?

    /// Creates an answer (tests, or a server whose answer needs translating).
    ///
    /// - Parameters:
    ///   - accessToken: the token sent with requests.
    ///   - tokenType: the kind of token, if known.
    ///   - expiresIn: how long the access token lives, if known.
    ///   - refreshToken: the token that renews it, if any.
    ///   - scope: the scopes granted, space-separated, if known.
    public init(accessToken: String, tokenType: String? = "Bearer", expiresIn: Duration? = nil,
                refreshToken: String? = nil, scope: String? = nil) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.scope = scope
    }

    /// The scopes granted, one per element; empty when the server did not say.
    public var scopes: [String] { scope.map { $0.split(separator: " ").map(String.init) } ?? [] }

    /// The credential this answer grants, its access token expiring `expiresIn` after `now`.
    ///
    /// ```swift
    /// let credential = answer.credential(subject: "user-42", now: Date())
    /// ```
    ///
    /// - Parameters:
    ///   - subject: the account the tokens belong to (it names the user's cache partition).
    ///   - now: when the answer was received; the system's clock by default (a refresh passes
    ///     `RefreshClient.date`, the provider's clock).
    public func credential(subject: String? = nil, now: Date = Date()) -> Credential {
        Credential(accessToken: accessToken, refreshToken: refreshToken,
                   expiresAt: expiresIn.map { now.addingTimeInterval($0.seconds) }, subject: subject)
    }

    /// `OAuthTokenResponse(Bearer, expires in 3600 s, access token <redacted>, refresh token <redacted>)`.
    public var description: String {
        var parts = [tokenType ?? "no token type"]
        parts.append("expires in " + (expiresIn.map(Self.seconds) ?? "unknown"))
        if let scope { parts.append("scope: \(scope)") }
        parts.append("access token: \(Redaction.placeholder)")
        parts.append("refresh token: \(refreshToken == nil ? "none" : Redaction.placeholder)")
        return "OAuthTokenResponse(\(parts.joined(separator: ", ")))"
    }

    /// Shows the token type, lifetime and scope; both tokens as `<redacted>`.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "accessToken": Redaction.placeholder,
            "tokenType": tokenType ?? "none",
            "expiresIn": expiresIn.map(Self.seconds) ?? "unknown",
            "refreshToken": (refreshToken == nil ? "none" : Redaction.placeholder) as String,
            "scope": scope ?? "none",
        ], displayStyle: .struct)
    }

    /// `3600 s`, or `0.5 s`.
    private static func seconds(_ duration: Duration) -> String {
        let (whole, fraction) = duration.components
        return fraction == 0 ? "\(whole) s" : "\(duration.seconds) s"
    }

    // MARK: - Decodable

    /// Decodes the fields of RFC 6749 §5.1.
    ///
    /// - Throws: `DecodingError` for a missing or empty access token, an `expires_in` that is not
    ///   a number of seconds from 0 to 100 years, or a field of the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: FieldKey.self)
        let accessKey = FieldKey.named("access_token", in: container)
        accessToken = try container.decode(String.self, forKey: accessKey)
        guard !accessToken.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: accessKey, in: container,
                                                   debugDescription: "the access token is empty")
        }
        tokenType = try container.decodeIfPresent(String.self, forKey: .named("token_type", in: container))
        expiresIn = try Self.lifetime(in: container)
        let refresh = try container.decodeIfPresent(String.self, forKey: .named("refresh_token", in: container))
        refreshToken = refresh?.isEmpty == true ? nil : refresh
        let scopeKey = FieldKey.named("scope", in: container)
        if let list = try? container.decodeIfPresent([String].self, forKey: scopeKey) {
            scope = list.joined(separator: " ")
        } else {
            scope = try container.decodeIfPresent(String.self, forKey: scopeKey)
        }
    }

    /// The longest `expires_in` accepted: 100 years.
    static let longestLifetime: Double = 100 * 365 * 24 * 3600

    /// `expires_in` as a number or a numeric string; `nil` when absent, null or an empty string.
    private static func lifetime(in container: KeyedDecodingContainer<FieldKey>) throws -> Duration? {
        let key = FieldKey.named("expires_in", in: container)
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return nil }
        let seconds: Double
        if let number = try? container.decode(Double.self, forKey: key) {
            seconds = number
        } else if let text = try? container.decode(String.self, forKey: key) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { return nil }
            guard let number = Double(trimmed) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "expires_in is not a number of seconds")
            }
            seconds = number
        } else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "expires_in is neither a number nor a numeric string")
        }
        guard seconds.isFinite, seconds >= 0, seconds <= longestLifetime else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "expires_in must be from 0 to 100 years in seconds")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// A field's name as RFC 6749 writes it, or in camel case when only that form is there (a
    /// decoder with `.convertFromSnakeCase` turns `access_token` into `accessToken` before it
    /// compares keys).
    struct FieldKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        static func named(_ name: String, in container: KeyedDecodingContainer<FieldKey>) -> FieldKey {
            let snake = FieldKey(stringValue: name)
            if container.contains(snake) { return snake }
            let words = name.split(separator: "_")
            let camel = FieldKey(stringValue: words.prefix(1).joined()
                + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined())
            return container.contains(camel) ? camel : snake
        }
    }
}
