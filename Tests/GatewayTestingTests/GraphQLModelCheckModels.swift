import Foundation

// Models an app would write by hand for the example API's operations (Queries/, Schemas/music.graphql),
// and some with one mistake each.

enum Genre: String, Decodable {
    case rock = "ROCK", pop = "POP", jazz = "JAZZ", electronic = "ELECTRONIC", hipHop = "HIP_HOP"
    case classical = "CLASSICAL", folk = "FOLK"
}

enum ReleaseKind: String, Decodable {
    case album = "ALBUM", single = "SINGLE", ep = "EP", compilation = "COMPILATION"
}

enum Plan: String, Decodable {
    case free = "FREE", premium = "PREMIUM", family = "FAMILY"
}

struct ArtistSummary: Decodable {
    var id: String
    var name: String
}

struct Image: Decodable {
    var url: String
    var width: Int
    var height: Int
}

struct ReleaseSummary: Decodable {
    var id: String
    var title: String
    var kind: ReleaseKind
    var releasedAt: Date
    var cover: Image?
}

struct TrackSummary: Decodable {
    var id: String
    var title: String
    var duration: Int
    var explicit: Bool
    var artists: [ArtistSummary]
}

/// `query GetTrack`, decoded as an app would.
struct GetTrack: Decodable {
    struct Track: Decodable {
        var id: String
        var title: String
        var duration: Int
        var explicit: Bool
        var artists: [ArtistSummary]
        var trackNumber: Int
        var playCount: Int
        var isLiked: Bool
        var genres: [Genre]
        var release: ReleaseSummary
    }

    var track: Track?

    /// Artists with a field the query does not select.
    struct WithMonthlyListeners: Decodable {
        struct Artist: Decodable {
            var id: String
            var name: String
            var monthlyListeners: Int
        }

        struct Track: Decodable {
            var id: String
            var artists: [Artist]
        }

        var track: Track?
    }

    /// A track that is never missing.
    struct AlwaysThere: Decodable {
        struct Track: Decodable {
            var id: String
        }

        var track: Track
    }

    /// Genres without hip-hop.
    struct WithFewGenres: Decodable {
        enum FewGenres: String, Decodable {
            case rock = "ROCK", pop = "POP", jazz = "JAZZ", electronic = "ELECTRONIC"
            case classical = "CLASSICAL", folk = "FOLK"
        }

        struct Track: Decodable {
            var id: String
            var genres: [FewGenres]
        }

        var track: Track?
    }

    /// A title read as a number.
    struct WithNumericTitle: Decodable {
        struct Track: Decodable {
            var id: String
            var title: Int
        }

        var track: Track?
    }
}

/// `query Me`, decoded as an app would.
struct Me: Decodable {
    struct Listener: Decodable {
        var id: String
        var displayName: String
        var country: String?
        var plan: Plan
    }

    var me: Listener
}

/// `query Me` with a country that is never missing.
struct WrongMe: Decodable {
    struct Listener: Decodable {
        var id: String
        var displayName: String
        var country: String
        var plan: Plan
    }

    var me: Listener
}

/// `query Me` with a display name the query asks for only sometimes.
struct MeName: Decodable {
    struct Listener: Decodable {
        var id: String
        var displayName: String
    }

    var me: Listener
}

/// `query Search`: a list of tracks, artists and releases, told apart by `__typename`.
struct Search: Decodable {
    enum Result: Decodable {
        case track(TrackSummary)
        case artist(ArtistSummary)
        case release(ReleaseSummary)

        private enum Key: String, CodingKey { case typename = "__typename" }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            switch try container.decode(String.self, forKey: .typename) {
            case "Track": self = .track(try TrackSummary(from: decoder))
            case "Artist": self = .artist(try ArtistSummary(from: decoder))
            case "Release": self = .release(try ReleaseSummary(from: decoder))
            case let other:
                throw DecodingError.dataCorruptedError(
                    forKey: .typename, in: container, debugDescription: "unknown search result \(other)")
            }
        }
    }

    var search: [Result]
}

/// `query Search` decoded by a model that knows tracks and artists only.
struct SearchWithoutReleases: Decodable {
    enum Result: Decodable {
        case track(TrackSummary)
        case artist(ArtistSummary)

        private enum Key: String, CodingKey { case typename = "__typename" }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            switch try container.decode(String.self, forKey: .typename) {
            case "Track": self = .track(try TrackSummary(from: decoder))
            case "Artist": self = .artist(try ArtistSummary(from: decoder))
            case let other:
                throw DecodingError.dataCorruptedError(
                    forKey: .typename, in: container, debugDescription: "unknown search result \(other)")
            }
        }
    }

    var search: [Result]
}

/// `{ node { __typename id ... on User { name } } }` read as if every node were a user.
struct AnyNode: Decodable {
    struct Node: Decodable {
        var id: String
        var name: String
    }

    var node: Node
}
