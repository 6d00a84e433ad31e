import Gateway

/// The JSON bodies of the example backend's REST side, shared by `ExampleBackend` (which writes
/// them) and the demo's client (which reads them through a `Provider`).
///
/// On the wire every key is snake_case (`access_token`, `duration_ms`): the backend encodes with
/// `.convertToSnakeCase` and the demo's provider decodes with `.convertFromSnakeCase`.
enum ExampleAPI {
    /// `POST /auth/login`.
    struct Login: Codable, Sendable {
        var username: String
        var password: String
    }

    /// `POST /auth/refresh`.
    struct Refresh: Codable, Sendable {
        var refreshToken: String
    }

    /// What login and refresh answer.
    struct Session: Codable, Sendable {
        var accessToken: String
        var refreshToken: String
        /// Seconds until the access token expires.
        var expiresIn: Int
        /// The account the tokens belong to.
        var subject: String
    }

    /// What the demo's client reads of a login answer: the standard OAuth 2 fields, and the
    /// account they belong to.
    struct SignIn: Decodable, Sendable {
        var tokens: OAuthTokenResponse
        var subject: String

        init(from decoder: any Decoder) throws {
            tokens = try OAuthTokenResponse(from: decoder)
            subject = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .subject)
        }

        private enum Keys: String, CodingKey { case subject }
    }

    /// `GET /me`.
    struct Profile: Codable, Sendable {
        var id: String
        var displayName: String
        var plan: String
        var likedCount: Int
    }

    struct ArtistSummary: Codable, Sendable {
        var id: String
        var name: String
    }

    struct ReleaseSummary: Codable, Sendable {
        var id: String
        var title: String
        var kind: String
        var releasedAt: String
    }

    /// `GET /tracks/{id}`.
    struct Track: Codable, Sendable {
        var id: String
        var title: String
        var durationMs: Int
        var trackNumber: Int
        var explicit: Bool
        var playCount: Int
        var genres: [String]
        var artists: [ArtistSummary]
        var release: ReleaseSummary
    }

    /// `GET /search?q=…&kinds[]=…`.
    struct SearchResults: Codable, Sendable {
        struct Hit: Codable, Sendable {
            /// `track`, `artist` or `release`.
            var kind: String
            var id: String
            var name: String
        }

        var query: String
        var kinds: [String]
        var results: [Hit]
    }

    /// The parameters of a search, sent in the query (`kinds` as `kinds[]=…`).
    struct SearchQuery: Encodable, Sendable {
        var q: String
        var kinds: [String]
    }

    /// `GET /tracks/{id}/stream`.
    struct StreamLink: Codable, Sendable {
        var url: String
        /// Seconds the URL stays valid.
        var expiresIn: Int
    }

    /// The body of every error answer: `{"error": {"code": "…", "message": "…"}}`.
    struct ErrorBody: Codable, Sendable {
        struct Detail: Codable, Sendable {
            var code: String
            var message: String
        }

        var error: Detail
    }
}
