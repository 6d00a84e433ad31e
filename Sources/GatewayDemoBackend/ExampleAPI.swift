import Gateway

/// The JSON bodies of the example backend's REST side, shared by `ExampleBackend` (which writes
/// them) and the demo's client (which reads them through a `Provider`).
///
/// On the wire every key is snake_case (`access_token`, `duration_ms`): the backend encodes with
/// `.convertToSnakeCase` and the demo's provider decodes with `.convertFromSnakeCase`.
package enum ExampleAPI {
    /// `POST /auth/login`.
    package struct Login: Codable, Sendable {
        package var username: String
        package var password: String

        package init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    /// `POST /auth/refresh`.
    package struct Refresh: Codable, Sendable {
        package var refreshToken: String
    }

    /// What login and refresh answer.
    package struct Session: Codable, Sendable {
        package var accessToken: String
        package var refreshToken: String
        /// Seconds until the access token expires.
        package var expiresIn: Int
        /// The account the tokens belong to.
        package var subject: String
    }

    /// What the demo's client reads of a login answer: the standard OAuth 2 fields, and the
    /// account they belong to.
    package struct SignIn: Decodable, Sendable {
        package var tokens: OAuthTokenResponse
        package var subject: String

        package init(from decoder: any Decoder) throws {
            tokens = try OAuthTokenResponse(from: decoder)
            subject = try decoder.container(keyedBy: Keys.self).decode(String.self, forKey: .subject)
        }

        private enum Keys: String, CodingKey { case subject }
    }

    /// `GET /me`.
    package struct Profile: Codable, Sendable {
        package var id: String
        package var displayName: String
        package var plan: String
        package var likedCount: Int
    }

    package struct ArtistSummary: Codable, Sendable {
        package var id: String
        package var name: String
    }

    package struct ReleaseSummary: Codable, Sendable {
        package var id: String
        package var title: String
        package var kind: String
        package var releasedAt: String
    }

    /// `GET /tracks/{id}`.
    package struct Track: Codable, Sendable {
        package var id: String
        package var title: String
        package var durationMs: Int
        package var trackNumber: Int
        package var explicit: Bool
        package var playCount: Int
        package var genres: [String]
        package var artists: [ArtistSummary]
        package var release: ReleaseSummary
    }

    /// `GET /search?q=…&kinds[]=…`.
    package struct SearchResults: Codable, Sendable {
        package struct Hit: Codable, Sendable {
            /// `track`, `artist` or `release`.
            package var kind: String
            package var id: String
            package var name: String
        }

        package var query: String
        package var kinds: [String]
        package var results: [Hit]
    }

    /// The parameters of a search, sent in the query (`kinds` as `kinds[]=…`).
    package struct SearchQuery: Encodable, Sendable {
        package var q: String
        package var kinds: [String]
    }

    /// `GET /tracks/{id}/stream`.
    package struct StreamLink: Codable, Sendable {
        package var url: String
        /// Seconds the URL stays valid.
        package var expiresIn: Int
    }

    /// The body of every error answer: `{"error": {"code": "…", "message": "…"}}`.
    package struct ErrorBody: Codable, Sendable {
        package struct Detail: Codable, Sendable {
            package var code: String
            package var message: String
        }

        package var error: Detail
    }
}
