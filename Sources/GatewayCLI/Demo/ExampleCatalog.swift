/// The data of the example music backend (`Schemas/music.graphql`): a few artists, releases and
/// tracks, fixed so that the demo prints the same thing on every machine.
///
/// The REST side of `ExampleBackend` serves it today; the GraphQL side reads the same values.
/// Ids are strings, as GraphQL `ID`s are.
struct ExampleCatalog: Sendable {
    struct Artist: Sendable {
        var id: String
        var name: String
        var monthlyListeners: Int
        var genres: [String]
    }

    struct Release: Sendable {
        var id: String
        var title: String
        /// A `ReleaseKind`: `ALBUM`, `SINGLE`, `EP` or `COMPILATION`.
        var kind: String
        /// ISO 8601, as the `DateTime` scalar.
        var releasedAt: String
        var artistIDs: [String]
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

    /// What a search found, in the order of the catalog: tracks, then artists, then releases.
    enum Hit: Sendable {
        case track(Track)
        case artist(Artist)
        case release(Release)
    }

    var artists: [Artist]
    var releases: [Release]
    var tracks: [Track]

    func artist(id: String) -> Artist? { artists.first { $0.id == id } }
    func release(id: String) -> Release? { releases.first { $0.id == id } }
    func track(id: String) -> Track? { tracks.first { $0.id == id } }

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

    /// The catalog the demo and the example backend use.
    static let standard = ExampleCatalog(
        artists: [
            Artist(id: "1", name: "The Lumens", monthlyListeners: 1_204_311, genres: ["ROCK", "POP"]),
            Artist(id: "2", name: "Mara Quell", monthlyListeners: 387_090, genres: ["JAZZ"]),
            Artist(id: "3", name: "Northbound Static", monthlyListeners: 52_876, genres: ["ELECTRONIC"]),
        ],
        releases: [
            Release(id: "10", title: "Night Lights", kind: "ALBUM", releasedAt: "2021-09-17T00:00:00Z",
                    artistIDs: ["1"]),
            Release(id: "11", title: "Blue Hour Sessions", kind: "EP", releasedAt: "2023-03-03T00:00:00Z",
                    artistIDs: ["2"]),
            Release(id: "12", title: "Signal / Noise", kind: "SINGLE", releasedAt: "2024-05-01T12:00:00Z",
                    artistIDs: ["3", "1"]),
        ],
        tracks: [
            Track(id: "1", title: "Night Drive", durationMs: 215_000, trackNumber: 1, explicit: false,
                  playCount: 8_412_903, artistIDs: ["1"], releaseID: "10", genres: ["ROCK"]),
            Track(id: "2", title: "Streetlight Hymn", durationMs: 187_500, trackNumber: 2, explicit: false,
                  playCount: 2_977_120, artistIDs: ["1"], releaseID: "10", genres: ["ROCK", "POP"]),
            Track(id: "3", title: "Lights Out", durationMs: 242_250, trackNumber: 3, explicit: true,
                  playCount: 1_530_044, artistIDs: ["1"], releaseID: "10", genres: ["ROCK"]),
            Track(id: "4", title: "Blue Hour", durationMs: 301_000, trackNumber: 1, explicit: false,
                  playCount: 640_215, artistIDs: ["2"], releaseID: "11", genres: ["JAZZ"]),
            Track(id: "5", title: "Slow Tide", durationMs: 276_800, trackNumber: 2, explicit: false,
                  playCount: 311_908, artistIDs: ["2"], releaseID: "11", genres: ["JAZZ"]),
            Track(id: "6", title: "Signal", durationMs: 198_400, trackNumber: 1, explicit: false,
                  playCount: 97_331, artistIDs: ["3", "1"], releaseID: "12", genres: ["ELECTRONIC"]),
        ]
    )
}
