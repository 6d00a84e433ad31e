import GraphQLLanguage

/// The example backend's resolvers: one object per type of `Schemas/music.graphql`, over a
/// snapshot of the catalog, for a request by `viewer` (the signed-in listener's id, or `nil`).
///
/// Fields about the listener (`Query.me`, `Track.isLiked`) need a viewer and fail with
/// `extensions.code: "UNAUTHENTICATED"` without one; the rest of the catalog is public.
/// A private playlist is visible to its owner only.
struct ExampleGraphQLResolvers: Sendable {
    let catalog: ExampleCatalog
    let viewer: String?

    typealias Failure = ExampleGraphQLFieldError

    // MARK: Query

    /// The `Query` root.
    var query: ExampleGraphQLObject {
        ExampleGraphQLObject("Query") { field, arguments throws(Failure) in
            let id = arguments["id"]?.stringValue ?? ""
            switch field {
            case "track": return catalog.track(id: id).map(track) ?? .null
            case "artist": return catalog.artist(id: id).map(artist) ?? .null
            case "release": return catalog.release(id: id).map(release) ?? .null
            case "playlist":
                guard let found = catalog.playlist(id: id), found.isPublic || found.ownerID == viewer else {
                    return .null
                }
                return playlist(found)
            case "search":
                let kinds = arguments["kinds"]?.arrayValue?.compactMap(\.stringValue) ?? []
                let first = min(max(arguments["first"]?.intValue ?? 10, 0), 50)
                let hits = catalog.search(arguments["text"]?.stringValue ?? "", kinds: kinds, first: first)
                return .list(hits.map { hit in
                    switch hit {
                    case .track(let found): track(found)
                    case .artist(let found): artist(found)
                    case .release(let found): release(found)
                    }
                })
            case "me":
                guard viewer == catalog.listener.id else { throw .unauthenticated("Query.me") }
                return listener
            default: throw .unknown(field, on: "Query")
            }
        }
    }

    // MARK: Catalog types

    func track(_ track: ExampleCatalog.Track) -> ExampleGraphQLValue {
        .object(ExampleGraphQLObject("Track") { field, _ throws(Failure) in
            switch field {
            case "id": return .string(track.id)
            case "title": return .string(track.title)
            case "duration": return .int(track.durationMs)
            case "trackNumber": return .int(track.trackNumber)
            case "explicit": return .bool(track.explicit)
            case "playCount": return .int(track.playCount)
            case "genres": return .strings(track.genres)
            case "artists": return .list(track.artistIDs.compactMap { catalog.artist(id: $0) }.map(artist))
            case "release": return catalog.release(id: track.releaseID).map(release) ?? .null
            case "isLiked":
                guard viewer == catalog.listener.id else { throw .unauthenticated("Track.isLiked") }
                return .bool(catalog.isLiked(track.id))
            default: throw .unknown(field, on: "Track")
            }
        })
    }

    func artist(_ artist: ExampleCatalog.Artist) -> ExampleGraphQLValue {
        .object(ExampleGraphQLObject("Artist") { field, arguments throws(Failure) in
            switch field {
            case "id": return .string(artist.id)
            case "name": return .string(artist.name)
            case "monthlyListeners": return .int(artist.monthlyListeners)
            case "genres": return .strings(artist.genres)
            case "releases":
                return .list(catalog.releases(byArtist: artist.id, kind: arguments["kind"]?.stringValue).map(release))
            case "topTracks":
                let first = arguments["first"]?.intValue ?? 5
                return .list(catalog.topTracks(byArtist: artist.id, first: first).map(track))
            default: throw .unknown(field, on: "Artist")
            }
        })
    }

    func release(_ release: ExampleCatalog.Release) -> ExampleGraphQLValue {
        .object(ExampleGraphQLObject("Release") { field, _ throws(Failure) in
            switch field {
            case "id": return .string(release.id)
            case "title": return .string(release.title)
            case "kind": return .string(release.kind)
            case "releasedAt": return .string(release.releasedAt)
            case "artists": return .list(release.artistIDs.compactMap { catalog.artist(id: $0) }.map(artist))
            case "tracks": return .list(catalog.tracks(onRelease: release.id).map(track))
            case "cover": return release.cover.map(Self.image) ?? .null
            default: throw .unknown(field, on: "Release")
            }
        })
    }

    static func image(_ image: ExampleCatalog.Image) -> ExampleGraphQLValue {
        .object(ExampleGraphQLObject("Image") { field, _ throws(Failure) in
            switch field {
            case "url": return .string(image.url)
            case "width": return .int(image.width)
            case "height": return .int(image.height)
            default: throw .unknown(field, on: "Image")
            }
        })
    }

    // MARK: The listener's things

    func playlist(_ playlist: ExampleCatalog.Playlist) -> ExampleGraphQLValue {
        .object(ExampleGraphQLObject("Playlist") { field, arguments throws(Failure) in
            switch field {
            case "id": return .string(playlist.id)
            case "name": return .string(playlist.name)
            case "description": return .optional(playlist.description)
            case "isPublic": return .bool(playlist.isPublic)
            case "cover": return playlist.cover.map(Self.image) ?? .null
            case "owner": return listener
            case "tracks": return try connection(playlist.entries, arguments)
            default: throw .unknown(field, on: "Playlist")
            }
        })
    }

    /// The signed-in listener (`Listener`), with their collection.
    var listener: ExampleGraphQLValue {
        let person = catalog.listener
        return .object(ExampleGraphQLObject("Listener") { field, _ throws(Failure) in
            switch field {
            case "id": return .string(person.id)
            case "displayName": return .string(person.displayName)
            case "country": return .optional(person.country)
            case "plan": return .string(person.plan)
            case "collection": return collection
            default: throw .unknown(field, on: "Listener")
            }
        })
    }

    private var collection: ExampleGraphQLValue {
        .object(ExampleGraphQLObject("Collection") { field, arguments throws(Failure) in
            guard viewer == catalog.listener.id else { throw .unauthenticated("Listener.collection") }
            let person = catalog.listener
            switch field {
            case "likedTracks": return try connection(person.likes, arguments)
            case "savedReleases":
                return .list(person.savedReleaseIDs.compactMap { catalog.release(id: $0) }.map(release))
            case "followedArtists":
                return .list(person.followedArtistIDs.compactMap { catalog.artist(id: $0) }.map(artist))
            case "playlists": return .list(catalog.listenerPlaylists.map(playlist))
            default: throw .unknown(field, on: "Collection")
            }
        })
    }

    /// A page of `entries` (`PlaylistTrackConnection`): `first` from the one after the cursor
    /// `after`. Cursors are the entry's position, as `cursor:3`.
    func connection(_ entries: [ExampleCatalog.Entry], _ arguments: JSONObject) throws(Failure) -> ExampleGraphQLValue {
        let first = arguments["first"]?.intValue ?? 20
        guard first >= 0 else { throw Failure("first must not be negative; it was \(first)") }
        var start = 0
        if let after = arguments["after"]?.stringValue {
            guard after.hasPrefix("cursor:"), let position = Int(after.dropFirst("cursor:".count)),
                  entries.indices.contains(position) else {
                throw Failure("after: \"\(after.prefix(40))\" is not a cursor of this list; use an endCursor it gave")
            }
            start = position + 1
        }
        let page = Array(entries.enumerated().dropFirst(start).prefix(first))
        let edges: [ExampleGraphQLValue] = page.compactMap { position, entry in
            guard let found = catalog.track(id: entry.trackID) else { return nil }
            return .object(ExampleGraphQLObject("PlaylistTrackEdge") { field, _ throws(Failure) in
                switch field {
                case "cursor": return .string("cursor:\(position)")
                case "addedAt": return .string(entry.addedAt)
                case "node": return track(found)
                default: throw .unknown(field, on: "PlaylistTrackEdge")
                }
            })
        }
        let endCursor = page.last.map { "cursor:\($0.offset)" }
        let hasNextPage = start + page.count < entries.count
        let pageInfo = ExampleGraphQLObject("PageInfo") { field, _ throws(Failure) in
            switch field {
            case "hasNextPage": return .bool(hasNextPage)
            case "endCursor": return .optional(endCursor)
            default: throw .unknown(field, on: "PageInfo")
            }
        }
        return .object(ExampleGraphQLObject("PlaylistTrackConnection") { field, _ throws(Failure) in
            switch field {
            case "totalCount": return .int(entries.count)
            case "edges": return .list(edges)
            case "pageInfo": return .object(pageInfo)
            default: throw .unknown(field, on: "PlaylistTrackConnection")
            }
        })
    }
}
