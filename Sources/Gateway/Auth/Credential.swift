import Foundation

/// What a signed-in session holds: an access token, the refresh token that renews it, when the
/// access token expires, and the subject (the account) it belongs to.
///
/// The subject is what partitions the response cache per user; two credentials of one account
/// share it. Neither `description`, `debugDescription` nor `dump()` shows a token: both print as
/// `<redacted>`.
///
/// ```swift
/// let credential = Credential(accessToken: session.accessToken, refreshToken: session.refreshToken,
///                             expiresIn: .seconds(session.expiresIn), subject: session.userID)
/// try await provider.tokenCoordinator?.save(credential)
/// ```
///
/// Encoded as JSON with the keys `access_token`, `refresh_token`, `expires_at` (seconds since
/// 1970) and `subject`, the layout `FileTokenStore` writes.
public struct Credential: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The token sent with requests (`Authorization: Bearer …` by default).
    public var accessToken: String
    /// The token that renews the access token; `nil` when the session cannot be refreshed.
    public var refreshToken: String?
    /// When the access token stops being accepted; `nil` when unknown (then only a rejected
    /// request causes a refresh).
    public var expiresAt: Date?
    /// The account the tokens belong to (a user id); it names the user's cache partition.
    public var subject: String?

    /// Creates a credential.
    ///
    /// - Parameters:
    ///   - accessToken: the token sent with requests.
    ///   - refreshToken: the token that renews it, if any.
    ///   - expiresAt: when the access token expires, if known.
    ///   - subject: the account the tokens belong to.
    public init(accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil, subject: String? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.subject = subject
    }

    /// Creates a credential whose access token expires `expiresIn` after `now` (an OAuth
    /// `expires_in`).
    ///
    /// - Parameters:
    ///   - accessToken: the token sent with requests.
    ///   - refreshToken: the token that renews it, if any.
    ///   - expiresIn: how long the access token lives from `now`.
    ///   - subject: the account the tokens belong to.
    ///   - now: the moment `expiresIn` counts from; the system's clock by default.
    public init(accessToken: String, refreshToken: String? = nil, expiresIn: Duration, subject: String? = nil,
                now: Date = Date()) {
        self.init(accessToken: accessToken, refreshToken: refreshToken,
                  expiresAt: now.addingTimeInterval(expiresIn.seconds),
                  subject: subject)
    }

    /// Whether the access token has expired at `date`.
    public func isExpired(at date: Date) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt <= date
    }

    /// Whether the access token expires within `window` of `date` (or already has): the test for
    /// a proactive refresh.
    public func expires(within window: Duration, of date: Date) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt.timeIntervalSince(date) <= window.seconds
    }

    /// `Credential(subject: 42, expires 2025-06-15T14:13:20Z, access token <redacted>, refresh token <redacted>)`.
    public var description: String {
        var parts = ["subject: \(subject ?? "none")"]
        parts.append("expires: " + (expiresAt.map { Self.iso8601($0) } ?? "unknown"))
        parts.append("access token: \(Redaction.placeholder)")
        parts.append("refresh token: \(refreshToken == nil ? "none" : Redaction.placeholder)")
        return "Credential(\(parts.joined(separator: ", ")))"
    }

    /// The same as `description`: no token is shown.
    public var debugDescription: String { description }

    /// Shows the subject and expiry; both tokens as `<redacted>`.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "accessToken": Redaction.placeholder,
            "refreshToken": (refreshToken == nil ? "none" : Redaction.placeholder) as String,
            "expiresAt": expiresAt.map { Self.iso8601($0) } ?? "unknown",
            "subject": subject ?? "none",
        ], displayStyle: .struct)
    }

    private static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    // MARK: - Codable

    private enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case expiresAt = "expires_at"
        case subject
    }

    /// Decodes `{"access_token": …, "refresh_token": …, "expires_at": <seconds since 1970>, "subject": …}`.
    ///
    /// - Throws: `DecodingError` for a missing or empty access token or a non-finite expiry.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        guard !accessToken.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .accessToken, in: container,
                                                   debugDescription: "the access token is empty")
        }
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        if let seconds = try container.decodeIfPresent(Double.self, forKey: .expiresAt) {
            guard seconds.isFinite else {
                throw DecodingError.dataCorruptedError(forKey: .expiresAt, in: container,
                                                       debugDescription: "the expiry is not a finite number")
            }
            expiresAt = Date(timeIntervalSince1970: seconds)
        } else {
            expiresAt = nil
        }
        subject = try container.decodeIfPresent(String.self, forKey: .subject)
    }

    /// Encodes the keys `init(from:)` reads; absent values are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encodeIfPresent(expiresAt?.timeIntervalSince1970, forKey: .expiresAt)
        try container.encodeIfPresent(subject, forKey: .subject)
    }
}
