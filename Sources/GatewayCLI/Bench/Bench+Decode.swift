import Foundation
import MusicOperations

/// `gateway bench decode`: one response of about 10 KB (`GetPlaylist` of `Queries/`, a page of
/// tracks) decoded with `JSONDecoder` into the generated `GetPlaylistQuery.Data` and into the
/// hand-written models an app would write for the same selection, side by side. The generated
/// types decode each fragment from the object that holds it (`TrackSummary` inside `node`);
/// the hand-written ones flatten the fragments into one struct.
struct DecodeBenchmark: Benchmark {
    var name: String { "decode" }
    var summary: String { "Decode a 10 KB response into generated types and into hand-written models" }
    var usage: String { "[--tracks N]" }
    var options: [BenchmarkOption] {
        [.value("tracks", help: "Tracks in the page (default 40, about 10 KB).")]
    }

    func run(_ input: BenchmarkInput, runner: BenchmarkRunner) throws -> [BenchmarkResult] {
        let count = try input.values["tracks"].map {
            guard let count = Int($0), count > 0 else { throw UsageError("--tracks takes a positive number") }
            return count
        } ?? 40
        let body = Self.response(tracks: count)
        let label = "GetPlaylist, \(count) tracks (\(body.count) bytes)"
        let decoder = JSONDecoder()
        // Both must decode before either is timed.
        do {
            _ = try decoder.decode(GetPlaylistQuery.Data.self, from: body)
            _ = try decoder.decode(HandWrittenPlaylist.self, from: body)
        } catch {
            throw BenchmarkFailure(message: "the response does not decode: \(error)", status: 1)
        }
        let generated = runner.measure(benchmark: "decode generated", input: label, bytesPerRun: body.count) {
            (try? decoder.decode(GetPlaylistQuery.Data.self, from: body))?.playlist?.tracks.edges.count ?? -1
        }
        let handWritten = runner.measure(benchmark: "decode hand-written", input: label, bytesPerRun: body.count) {
            (try? decoder.decode(HandWrittenPlaylist.self, from: body))?.playlist?.tracks.edges.count ?? -1
        }
        return [generated, handWritten]
    }

    /// A `data` object for `GetPlaylist` with `tracks` edges.
    static func response(tracks: Int) -> Data {
        let edges = (0..<tracks).map { index in
            """
            {"cursor": "c\(index)", "addedAt": "2024-06-01T08:00:00Z", "node": {"id": "t\(index)", \
            "title": "Track number \(index)", "duration": \(180_000 + index), "explicit": \(index % 3 == 0), \
            "artists": [{"id": "a1", "name": "The Lanterns"}, {"id": "a\(index)", "name": "Guest \(index)"}]}}
            """
        }
        let text = """
            {"playlist": {"id": "p1", "name": "Morning", "description": null, "isPublic": true,
            "owner": {"id": "u1", "displayName": "Ada"},
            "tracks": {"totalCount": \(tracks), "edges": [\(edges.joined(separator: ","))],
            "pageInfo": {"hasNextPage": false, "endCursor": "c\(tracks - 1)"}}}}
            """
        return Data(text.utf8)
    }
}

/// The models an app would write by hand for `GetPlaylist`: the fragments' fields flattened.
struct HandWrittenPlaylist: Decodable {
    struct Playlist: Decodable {
        var id: String
        var name: String
        var description: String?
        var isPublic: Bool
        var owner: Owner
        var tracks: Tracks
    }
    struct Owner: Decodable {
        var id: String
        var displayName: String
    }
    struct Tracks: Decodable {
        var totalCount: Int
        var edges: [Edge]
        var pageInfo: PageInfo
    }
    struct Edge: Decodable {
        var cursor: String
        var addedAt: String
        var node: Track
    }
    struct Track: Decodable {
        var id: String
        var title: String
        var duration: Int
        var explicit: Bool
        var artists: [Artist]
    }
    struct Artist: Decodable {
        var id: String
        var name: String
    }
    struct PageInfo: Decodable {
        var hasNextPage: Bool
        var endCursor: String?
    }
    var playlist: Playlist?
}
