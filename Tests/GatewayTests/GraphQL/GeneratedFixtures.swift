import Foundation
import Gateway
import GraphQLLanguage

// Operation types written by hand exactly as `gateway generate` writes them for the operations
// of `Queries/` (and a few without a file). Each definition's normalized text is that of the
// operation as written in its file; `theDefinitionsOfTheFixturesAreTrueToTheirFiles` checks it.

public struct MeQuery: GraphQLQuery {
    public static let definition = GraphQLOperationDefinition(
        name: "Me", kind: .query,
        text: "query Me {\n  me {\n    id\n    displayName\n    country\n    plan\n  }\n}",
        normalizedText: "query Me{me{id displayName country plan}}",
        textHash: "c4fb68b461fdeb7df48d4e67188a92fb8b3cc8075021b96e7321e8b6bcb563e6",
        normalizedTextHash: "c4eecf2edec1ab343a837fa1a9a95f890ff7fa630eb602334e91302dd8b23a4a")
    public init() {}
    public struct Data: Decodable, Sendable {
        public let me: Me
        public struct Me: Decodable, Sendable {
            public let id: String
            public let displayName: String
            public let country: String?
            public let plan: Plan
        }
    }
}

public enum Plan: String, Codable, Sendable {
    case free = "FREE"
    case premium = "PREMIUM"
    case family = "FAMILY"
}

public enum SearchKind: String, Codable, Sendable {
    case track = "TRACK"
    case artist = "ARTIST"
    case release = "RELEASE"
}

public struct GetTrackQuery: GraphQLQuery {
    public static let definition = GraphQLOperationDefinition(
        name: "GetTrack", kind: .query,
        text: "query GetTrack($id: ID!) {\n  track(id: $id) {\n    __typename\n    ...TrackSummary\n    trackNumber\n    playCount\n    isLiked\n    genres\n    release {\n      ...ReleaseSummary\n    }\n  }\n}\n\nfragment ArtistSummary on Artist {\n  id\n  name\n}\n\nfragment TrackSummary on Track {\n  id\n  title\n  duration\n  explicit\n  artists {\n    ...ArtistSummary\n  }\n}\n\nfragment ReleaseSummary on Release {\n  id\n  title\n  kind\n  releasedAt\n  cover {\n    url\n    width\n    height\n  }\n}",
        normalizedText: "query GetTrack($id:ID!){track(id:$id){...TrackSummary trackNumber playCount isLiked genres release{...ReleaseSummary}}}fragment ArtistSummary on Artist{id name}fragment ReleaseSummary on Release{id title kind releasedAt cover{url width height}}fragment TrackSummary on Track{id title duration explicit artists{...ArtistSummary}}",
        textHash: "c5002b39b3a1ff8802c172cb72c122b633b80dc74e1c01937c5bfdad4dde9b3c",
        normalizedTextHash: "1697f841fed598e69bd91b2cb33d364e6f5b639b223499323a32c0242fb88880")
    public var id: String
    public init(id: String) { self.id = id }
    public struct Data: Decodable, Sendable {
        public let track: Track?
        public struct Track: Decodable, Sendable {
            public let __typename: String
            public let id: String
            public let title: String
        }
    }
}

public struct SearchQuery: GraphQLQuery {
    public static let definition = GraphQLOperationDefinition(
        name: "Search", kind: .query,
        text: "query Search($text: String!, $kinds: [SearchKind!], $first: Int = 10) {\n  search(text: $text, kinds: $kinds, first: $first) {\n    __typename\n    ... on Track {\n      ...TrackSummary\n    }\n    ... on Artist {\n      ...ArtistSummary\n      monthlyListeners\n    }\n    ... on Release {\n      ...ReleaseSummary\n    }\n  }\n}\n\nfragment ArtistSummary on Artist {\n  id\n  name\n}\n\nfragment TrackSummary on Track {\n  id\n  title\n  duration\n  explicit\n  artists {\n    ...ArtistSummary\n  }\n}\n\nfragment ReleaseSummary on Release {\n  id\n  title\n  kind\n  releasedAt\n  cover {\n    url\n    width\n    height\n  }\n}",
        normalizedText: "query Search($first:Int=10$kinds:[SearchKind!]$text:String!){search(first:$first kinds:$kinds text:$text){__typename...on Track{...TrackSummary}...on Artist{...ArtistSummary monthlyListeners}...on Release{...ReleaseSummary}}}fragment ArtistSummary on Artist{id name}fragment ReleaseSummary on Release{id title kind releasedAt cover{url width height}}fragment TrackSummary on Track{id title duration explicit artists{...ArtistSummary}}",
        textHash: "49399fc555afe8985438ac43a81c94abb9e2c64bed056b79a8c32ae7b43bef5f",
        normalizedTextHash: "e656e9b98e5af220f56e6ab50873f947f6eb8c21110e5ad74207a3d8e1eaa998",
        variableDefaults: ["first": 10])
    public var text: String
    public var kinds: [SearchKind]?
    public var first: Int?
    public init(text: String, kinds: [SearchKind]? = nil, first: Int? = nil) {
        self.text = text
        self.kinds = kinds
        self.first = first
    }
    public struct Data: Decodable, Sendable {
        public let search: [Result]
        public struct Result: Decodable, Sendable { public let __typename: String }
    }
}

public struct LikeTrackInput: Encodable, Sendable {
    public var trackID: String
    public var source: String?
    public init(trackID: String, source: String? = nil) {
        self.trackID = trackID
        self.source = source
    }
}

public struct LikeTrackMutation: GraphQLMutation {
    public static let definition = GraphQLOperationDefinition(
        name: "LikeTrack", kind: .mutation,
        text: "mutation LikeTrack($input: LikeTrackInput!) {\n  likeTrack(input: $input) {\n    likedCount\n    track {\n      __typename\n      id\n      isLiked\n    }\n  }\n}",
        normalizedText: "mutation LikeTrack($input:LikeTrackInput!){likeTrack(input:$input){likedCount track{__typename id isLiked}}}",
        textHash: "cbc5193fdcd11256b52d5765731f4abece53372db54fc768709a2cb201d37b2f",
        normalizedTextHash: "2c1b6ef372b8494698e3348e4a15836ae45b35ab9999a1b1a00cc78c6032cb8a")
    public var input: LikeTrackInput
    public init(input: LikeTrackInput) { self.input = input }
    public struct Data: Decodable, Sendable {
        public let likeTrack: LikeTrack
        public struct LikeTrack: Decodable, Sendable { public let likedCount: Int }
    }
}

public struct CreatePlaylistMutation: GraphQLMutation {
    public static let definition = GraphQLOperationDefinition(
        name: "CreatePlaylist", kind: .mutation,
        text: "mutation CreatePlaylist($name: String!, $description: String, $isPublic: Boolean = false) {\n  createPlaylist(\n    input: {name: $name, description: $description, isPublic: $isPublic}\n  ) {\n    __typename\n    id\n    name\n    isPublic\n  }\n}",
        normalizedText: "mutation CreatePlaylist($description:String$isPublic:Boolean=false$name:String!){createPlaylist(input:{description:$description isPublic:$isPublic name:$name}){__typename id name isPublic}}",
        textHash: "a76eb934a9f9f96283c34472b5908dba4331d27d44688541adffcd5c4428bb7f",
        normalizedTextHash: "771f9a2eb7ab90921a49b56a6eb30dcc179e760c0e2257fdec9ede0c9aef6178",
        variableDefaults: ["isPublic": false])
    public var name: String
    public var description: String?
    public var isPublic: Bool?
    public init(name: String, description: String? = nil, isPublic: Bool? = nil) {
        self.name = name
        self.description = description
        self.isPublic = isPublic
    }
    public struct Data: Decodable, Sendable {
        public let createPlaylist: CreatePlaylist
        public struct CreatePlaylist: Decodable, Sendable {
            public let id: String
            public let name: String
            public let isPublic: Bool
        }
    }
}

/// An operation with a custom scalar variable (no file: nothing reads its normalized text).
public struct PlaysSinceQuery: GraphQLQuery {
    public static let definition = GraphQLOperationDefinition(
        name: "PlaysSince", kind: .query, text: "query PlaysSince($since: DateTime!) {\n  plays(since: $since)\n}",
        normalizedText: "query PlaysSince($since:DateTime!){plays(since:$since)}",
        textHash: "017e0b13567c8a70f24bf8aacb37a86f6c3b2478df930f8cfc9b3135ce12ceaf",
        normalizedTextHash: "6910763cb5e5ee0c49c0de265d3565e5ddd2050eaa64b614d25710cba72388bd")
    public var since: Date
    public init(since: Date) { self.since = since }
    public struct Data: Decodable, Sendable { public let plays: Int }
}

/// An operation with a `Float` variable, which JSON cannot carry when it is not finite.
public struct RatingQuery: GraphQLQuery {
    public static let definition = GraphQLOperationDefinition(
        name: "Rating", kind: .query, text: "query Rating($score: Float!) {\n  rate(score: $score)\n}",
        normalizedText: "query Rating($score:Float!){rate(score:$score)}",
        textHash: "2e3948acba94b72609a33e034f0856fa338fa05ebb3ab80b21225b35861bc001",
        normalizedTextHash: "1ea14b968b510f729a794800424613e4f748b7ce8f7555c94759d99bfae69fd8")
    public var score: Double
    public init(score: Double) { self.score = score }
    public struct Data: Decodable, Sendable { public let rate: Bool }
}

/// An anonymous query, as the generator writes one (named after its file, sent without a name).
public struct AnonymousMeQuery: GraphQLQuery {
    public static let definition = GraphQLOperationDefinition(
        name: nil, kind: .query, text: "{\n  me {\n    id\n  }\n}", normalizedText: "{me{id}}",
        textHash: "2ba951b0fb88368cba6a1d01baa7b8961e29d7afc7c4a748c0c6227ec4cc333e",
        normalizedTextHash: "8a1ab4b0112458feae674c80d2d91ccbc820e0cedd000365c0b66271ee83aa79")
    public init() {}
    public struct Data: Decodable, Sendable {
        public let me: Me
        public struct Me: Decodable, Sendable { public let id: String }
    }
}

/// A subscription, which `fetch` refuses.
public struct PlaysSubscription: GraphQLSubscription {
    public static let definition = GraphQLOperationDefinition(
        name: "Plays", kind: .subscription, text: "subscription Plays {\n  plays\n}",
        normalizedText: "subscription Plays{plays}",
        textHash: "cc298e500cd09f9f630cff4f9beb74cb8161f5ad00ca9c793e9b4a28291d0778",
        normalizedTextHash: "14b66a12dc9edbb6fd227c17eacd0f1331de0413fb5adaf0ae74f6f027bbfdff")
    public init() {}
    public struct Data: Decodable, Sendable { public let plays: Int }
}

/// A definition whose text does not parse, as only a hand-edited one has.
public struct BrokenQuery: GraphQLQuery {
    public static let definition = GraphQLOperationDefinition(
        name: "Broken", kind: .query, text: "query Broken { plays(",
        normalizedText: "query Broken{plays}",
        textHash: "e9f50ca6ce7e00eddf89ca17158cc61ef803547dafb0094d32fa442f6d23a577",
        normalizedTextHash: "67ecf851b94801721241fdca31ff5b9f09a9484b5d224e60f2e316950c90b4b7")
    public init() {}
    public struct Data: Decodable, Sendable { public let plays: Int }
}

enum GeneratedFixtures {
    /// The definitions of the types made for operations of `Queries/`.
    static let definitions = [MeQuery.definition, GetTrackQuery.definition, SearchQuery.definition,
                              LikeTrackMutation.definition, CreatePlaylistMutation.definition]

    static func track(_ id: String, title: String) -> JSONValue {
        ["track": ["__typename": "Track", "id": .string(id), "title": .string(title)]]
    }

    static let playlist: JSONValue = [
        "createPlaylist": ["__typename": "Playlist", "id": "p1", "name": "Morning", "isPublic": false],
    ]

    static let liked: JSONValue = ["likeTrack": ["likedCount": 3, "track": ["__typename": "Track", "id": "t1",
                                                                             "isLiked": true]]]
}
