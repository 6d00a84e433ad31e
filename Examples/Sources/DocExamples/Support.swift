// The types and helpers the examples take as given: the app's models, a decoded GraphQL
// operation, a counter. None of these lines is copied from a doc comment.
import Foundation
import Gateway
import GraphQLLanguage

struct User: Codable, Sendable {
    var id: Int
    var name: String
}

struct Track: Codable, Sendable {
    var id: String
    var title: String
}

/// What the sign-in and refresh endpoints answer.
struct Session: Codable, Sendable {
    var accessToken: String
    var refreshToken: String?
    var expiresIn: Int
    var userID: String
}

/// The data of the `GetTrack` query of `Queries/`.
struct GetTrack: Codable, Sendable {
    var track: Track?
}

/// The data of the `LikeTrack` mutation.
struct Liked: Codable, Sendable {
    var likeTrack: Bool
}

struct LikeTrackInput: Codable, Sendable {
    var trackID: String
}

struct LikeTrackVariables: Encodable, Sendable {
    var input: LikeTrackInput
}

/// A backend's error body.
struct APIProblem: Codable, Sendable, Error {
    var title: String
}

struct Order: Codable, Sendable {
    var id: Int
}

struct OrderDraft: Codable, Sendable {
    var trackIDs: [String]
}

struct Login: Codable, Sendable {
    var username: String
    var password: String
}

enum MyError: Error {
    case noRefreshToken
}

/// Where an example shows a value on screen.
func show(_ value: some Any) {}

/// An app's logger.
struct AppLogger: Sendable {
    func debug(_ message: String) {}
}

struct TrackFilter: Codable, Sendable {
    var genre: String
}

/// The data of the `Me` query of `Queries/`.
struct Me: Decodable, Sendable {
    struct User: Decodable, Sendable {
        var id: String
        var displayName: String
        var country: String?
        var plan: String
    }
    var me: User?
}
