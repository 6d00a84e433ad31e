/// The data of the example music backend (`Schemas/music.graphql`): artists, releases, tracks,
/// the signed-in listener with their likes, saved releases, followed artists and playlists.
///
/// A value: the backend keeps one behind a lock; queries read a snapshot and mutations change it
/// (`ExampleCatalog+Changes.swift`). The REST and GraphQL sides read the same values. Ids are
/// strings, as GraphQL `ID`s are; dates are ISO 8601 text, as the `DateTime` scalar.
package struct ExampleCatalog: Sendable {
    struct Artist: Sendable {
        var id: String
        var name: String
        var monthlyListeners: Int
        var genres: [String]
    }

    /// A picture: a release's or a playlist's cover.
    struct Image: Sendable, Hashable {
        var url: String
        var width: Int
        var height: Int
    }

    struct Release: Sendable {
        var id: String
        var title: String
        /// A `ReleaseKind`: `ALBUM`, `SINGLE`, `EP` or `COMPILATION`.
        var kind: String
        /// ISO 8601, as the `DateTime` scalar.
        var releasedAt: String
        var artistIDs: [String]
        var cover: Image?
    }

    struct Track: Sendable {
        var id: String
        var title: String
        var durationMs: Int
        var trackNumber: Int
        var explicit: Bool
        var playCount: Int
        var artistIDs: [String]
        var releaseID: String
        var genres: [String]
    }

    /// A track in a list, with when it was added (a like, a playlist entry).
    struct Entry: Sendable, Hashable {
        var trackID: String
        var addedAt: String
    }

    struct Playlist: Sendable {
        var id: String
        var name: String
        var description: String?
        var ownerID: String
        var isPublic: Bool
        var cover: Image?
        var entries: [Entry]
    }

    /// The signed-in person (`Listener`) and their collection.
    struct Listener: Sendable {
        var id: String
        var displayName: String
        var country: String?
        /// A `Plan`: `FREE`, `PREMIUM` or `FAMILY`.
        var plan: String
        /// Liked tracks, oldest first.
        var likes: [Entry]
        var savedReleaseIDs: [String]
        var followedArtistIDs: [String]
    }

    /// What a search found, in the order of the catalog: tracks, then artists, then releases.
    enum Hit: Sendable {
        case track(Track)
        case artist(Artist)
        case release(Release)
    }

    var artists: [Artist]
    var releases: [Release]
    var tracks: [Track]
    var playlists: [Playlist]
    var listener: Listener

    func artist(id: String) -> Artist? { artists.first { $0.id == id } }
    func release(id: String) -> Release? { releases.first { $0.id == id } }
    func track(id: String) -> Track? { tracks.first { $0.id == id } }
    func playlist(id: String) -> Playlist? { playlists.first { $0.id == id } }

    /// The tracks of a release, by track number.
    func tracks(onRelease id: String) -> [Track] {
        tracks.filter { $0.releaseID == id }.sorted { $0.trackNumber < $1.trackNumber }
    }

    /// An artist's releases, newest first, optionally of one kind.
    func releases(byArtist id: String, kind: String? = nil) -> [Release] {
        releases.filter { $0.artistIDs.contains(id) && (kind == nil || $0.kind == kind) }
            .sorted { $0.releasedAt > $1.releasedAt }
    }

    /// An artist's most played tracks, at most `first`.
    func topTracks(byArtist id: String, first: Int) -> [Track] {
        Array(tracks.filter { $0.artistIDs.contains(id) }.sorted { $0.playCount > $1.playCount }.prefix(max(0, first)))
    }

    /// Whether the listener likes the track.
    func isLiked(_ trackID: String) -> Bool { listener.likes.contains { $0.trackID == trackID } }

    /// The listener's playlists, in the order they were made.
    var listenerPlaylists: [Playlist] { playlists.filter { $0.ownerID == listener.id } }

    /// Tracks, artists and releases whose names contain `text` (ignoring case), limited to `kinds`
    /// (`track`, `artist`, `release`, any case; every kind when empty) and to `first` results.
    func search(_ text: String, kinds: [String] = [], first: Int = 10) -> [Hit] {
        let needle = text.lowercased()
        let wanted = Set(kinds.map { $0.lowercased() })
        func include(_ kind: String) -> Bool { wanted.isEmpty || wanted.contains(kind) }
        var hits: [Hit] = []
        if include("track") {
            hits += tracks.filter { $0.title.lowercased().contains(needle) }.map(Hit.track)
        }
        if include("artist") {
            hits += artists.filter { $0.name.lowercased().contains(needle) }.map(Hit.artist)
        }
        if include("release") {
            hits += releases.filter { $0.title.lowercased().contains(needle) }.map(Hit.release)
        }
        return Array(hits.prefix(max(0, first)))
    }
}
