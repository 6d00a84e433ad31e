import Foundation
import GatewayTestSupport

/// A GraphQL server that nobody here wrote: ariadne 1.1.1 (on graphql-core) serving
/// `Schemas/music.graphql` with simple resolvers over a small catalog, through its WSGI app on
/// werkzeug, on 127.0.0.1. One per test process, started on first use off the cooperative
/// pool; it exits when the test process ends (it waits for the end of its standard input).
enum AriadnePeer {
    /// The running server, or `nil` when ariadne or werkzeug is not installed.
    static let shared = Task<PythonPeer?, any Error> {
        let schema = QueryFiles.root.appendingPathComponent("Schemas/music.graphql").path
        return try await PythonPeer.launch(script: script, arguments: [schema])
    }

    /// Whether the server runs (for `.enabled(if:)`); throws when ariadne is installed but the
    /// server did not start.
    static func isRunning() async throws -> Bool { try await shared.value != nil }

    static let script = #"""
import logging, os, sys, threading
logging.disable(logging.CRITICAL)
try:
    from ariadne import MutationType, ObjectType, QueryType, make_executable_schema
    from ariadne.wsgi import GraphQL
    from werkzeug.serving import make_server
except ImportError as missing:
    print("MISSING", missing, flush=True)
    sys.exit(0)

ARTISTS = {
    "a1": {"id": "a1", "name": "The Lanterns", "monthlyListeners": 120000, "genres": ["ROCK", "FOLK"]},
    "a2": {"id": "a2", "name": "Mira Sol", "monthlyListeners": 56000, "genres": ["JAZZ"]},
}
RELEASES = {
    "r1": {"id": "r1", "title": "Night Lines", "kind": "ALBUM", "releasedAt": "2024-05-01T12:00:00Z",
           "artistIDs": ["a1"], "trackIDs": ["t1", "t2"],
           "cover": {"url": "https://img.example.com/r1.png", "width": 640, "height": 640}},
    "r2": {"id": "r2", "title": "Blue Hour", "kind": "SINGLE", "releasedAt": "2023-11-17T00:00:00Z",
           "artistIDs": ["a2", "a1"], "trackIDs": ["t3"], "cover": None},
}
TRACKS = {
    "t1": {"id": "t1", "title": "First Light", "duration": 201000, "trackNumber": 1, "explicit": False,
           "playCount": 5012, "artistIDs": ["a1"], "releaseID": "r1", "genres": ["ROCK"]},
    "t2": {"id": "t2", "title": "Night Lines", "duration": 187500, "trackNumber": 2, "explicit": True,
           "playCount": 9120, "artistIDs": ["a1"], "releaseID": "r1", "genres": ["ROCK", "FOLK"]},
    "t3": {"id": "t3", "title": "Blue Hour", "duration": 240250, "trackNumber": 1, "explicit": False,
           "playCount": 777, "artistIDs": ["a2", "a1"], "releaseID": "r2", "genres": ["JAZZ"]},
}
ME = {"id": "u1", "displayName": "Ada", "country": "NO", "plan": "PREMIUM"}
LIKED = ["t2"]
PLAYLISTS = {"p1": {"id": "p1", "name": "Morning", "description": None, "isPublic": True, "cover": None,
                    "trackIDs": ["t1", "t3", "t2"]}}

def connection(ids, first, after):
    start = int(after[1:]) + 1 if after else 0
    page = ids[start:start + first]
    edges = [{"cursor": "c%d" % (start + i), "addedAt": "2024-06-0%dT08:00:00Z" % (start + i + 1),
              "node": TRACKS[t]} for i, t in enumerate(page)]
    return {"totalCount": len(ids), "edges": edges,
            "pageInfo": {"hasNextPage": start + first < len(ids), "endCursor": edges[-1]["cursor"] if edges else None}}

query, mutation = QueryType(), MutationType()
track, artist, release = ObjectType("Track"), ObjectType("Artist"), ObjectType("Release")
playlist, listener, collection = ObjectType("Playlist"), ObjectType("Listener"), ObjectType("Collection")

query.set_field("track", lambda _, info, id: TRACKS.get(id))
query.set_field("artist", lambda _, info, id: ARTISTS.get(id))
query.set_field("release", lambda _, info, id: RELEASES.get(id))
query.set_field("playlist", lambda _, info, id: PLAYLISTS.get(id))
query.set_field("me", lambda *_: ME)

@query.field("search")
def search(_, info, text, kinds=None, first=10):
    kinds = kinds if kinds is not None else ["TRACK", "ARTIST", "RELEASE"]
    needle, found = text.lower(), []
    if "TRACK" in kinds:
        found += [dict(t, __typename="Track") for t in TRACKS.values() if needle in t["title"].lower()]
    if "ARTIST" in kinds:
        found += [dict(a, __typename="Artist") for a in ARTISTS.values() if needle in a["name"].lower()]
    if "RELEASE" in kinds:
        found += [dict(r, __typename="Release") for r in RELEASES.values() if needle in r["title"].lower()]
    return found[:first]

track.set_field("artists", lambda t, info: [ARTISTS[a] for a in t["artistIDs"]])
track.set_field("release", lambda t, info: RELEASES[t["releaseID"]])
track.set_field("isLiked", lambda t, info: t["id"] in LIKED)

@artist.field("releases")
def artist_releases(a, info, kind=None):
    return [r for r in RELEASES.values() if a["id"] in r["artistIDs"] and (kind is None or r["kind"] == kind)]

@artist.field("topTracks")
def top_tracks(a, info, first=5):
    own = [t for t in TRACKS.values() if a["id"] in t["artistIDs"]]
    return sorted(own, key=lambda t: -t["playCount"])[:first]

release.set_field("artists", lambda r, info: [ARTISTS[a] for a in r["artistIDs"]])
release.set_field("tracks", lambda r, info: [TRACKS[t] for t in r["trackIDs"]])
playlist.set_field("owner", lambda p, info: ME)
playlist.set_field("tracks", lambda p, info, first=20, after=None: connection(p["trackIDs"], first, after))
listener.set_field("collection", lambda l, info: {})
collection.set_field("likedTracks", lambda c, info, first=20, after=None: connection(LIKED, first, after))
collection.set_field("savedReleases", lambda c, info: [RELEASES["r1"]])
collection.set_field("followedArtists", lambda c, info: [ARTISTS["a1"]])
collection.set_field("playlists", lambda c, info: list(PLAYLISTS.values()))

@mutation.field("likeTrack")
def like_track(_, info, input):
    if input["trackID"] not in TRACKS:
        raise ValueError("no track " + input["trackID"])
    if input["trackID"] not in LIKED:
        LIKED.append(input["trackID"])
    return {"track": TRACKS[input["trackID"]], "likedCount": len(LIKED)}

@mutation.field("createPlaylist")
def create_playlist(_, info, input):
    made = {"id": "pl-" + input["name"].lower().replace(" ", "-"), "name": input["name"],
            "description": input.get("description"), "isPublic": input.get("isPublic", False), "cover": None,
            "trackIDs": input.get("trackIDs") or []}
    PLAYLISTS[made["id"]] = made
    return made

schema = make_executable_schema(open(sys.argv[1]).read(), query, mutation, track, artist, release, playlist,
                                listener, collection)
server = make_server("127.0.0.1", 0, GraphQL(schema, execute_get_queries=True), threaded=True)

def watch_parent():
    # The test process holds our stdin open; when it ends, so do we.
    sys.stdin.buffer.read()
    os._exit(0)

threading.Thread(target=watch_parent, daemon=True).start()
print("READY", server.server_port, flush=True)
server.serve_forever()
"""#
}
