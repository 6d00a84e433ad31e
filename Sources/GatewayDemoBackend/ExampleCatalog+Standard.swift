extension ExampleCatalog {
    /// The catalog the demo and the example backend start from, fixed so that the demo prints the
    /// same thing on every machine.
    package static let standard = ExampleCatalog(
        artists: [
            Artist(id: "1", name: "The Lumens", monthlyListeners: 1_204_311, genres: ["ROCK", "POP"]),
            Artist(id: "2", name: "Mara Quell", monthlyListeners: 387_090, genres: ["JAZZ"]),
            Artist(id: "3", name: "Northbound Static", monthlyListeners: 52_876, genres: ["ELECTRONIC"]),
        ],
        releases: [
            Release(id: "10", title: "Night Lights", kind: "ALBUM", releasedAt: "2021-09-17T00:00:00Z",
                    artistIDs: ["1"], cover: Image(url: "https://img.example.com/releases/10.png", width: 640,
                                                   height: 640)),
            Release(id: "11", title: "Blue Hour Sessions", kind: "EP", releasedAt: "2023-03-03T00:00:00Z",
                    artistIDs: ["2"], cover: Image(url: "https://img.example.com/releases/11.png", width: 600,
                                                   height: 600)),
            Release(id: "12", title: "Signal / Noise", kind: "SINGLE", releasedAt: "2024-05-01T12:00:00Z",
                    artistIDs: ["3", "1"], cover: nil),
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
        ],
        playlists: [
            Playlist(id: "p1", name: "Late Night", description: "Slow songs for the drive home",
                     ownerID: "listener-1", isPublic: true, cover: nil,
                     entries: [Entry(trackID: "1", addedAt: "2025-02-01T21:00:00Z"),
                               Entry(trackID: "4", addedAt: "2025-02-01T21:02:00Z"),
                               Entry(trackID: "5", addedAt: "2025-02-03T22:15:00Z")]),
        ],
        listener: Listener(
            id: "listener-1", displayName: "Demo Listener", country: "NO", plan: "PREMIUM",
            likes: [Entry(trackID: "1", addedAt: "2025-01-10T08:00:00Z"),
                    Entry(trackID: "6", addedAt: "2025-01-12T19:30:00Z")],
            savedReleaseIDs: ["10"], followedArtistIDs: ["1", "2"])
    )
}
