import Foundation
import Gateway
import GatewayCodegen
import GraphQLLanguage
import MusicOperations
import GatewayTestSupport
import Testing

/// The generated types of `Queries/` (the `MusicOperations` target) decode canned responses and
/// encode their variables; the target is what the generator makes today, byte for byte.
///
/// The generated code lives in a target of its own rather than being compiled by the test, so the
/// package build compiles it like an app would and these tests can use it directly; the freshness
/// test below fails, naming the file, when the generator's output and the target drift apart
/// (regenerate with `swift run gateway generate --output Tests/MusicOperations`).
@Suite(.offPool) struct GeneratedDecodingTests {
    @Test func musicOperationsTargetIsWhatTheGeneratorMakesToday() throws {
        let folder = CodegenFixtures.packageRoot.appendingPathComponent("Tests/MusicOperations")
        let present = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        let files = try CodegenFixtures.musicFiles()
        #expect(present.sorted() == files.map(\.name))
        for file in files {
            let written = try String(contentsOf: folder.appendingPathComponent(file.name), encoding: .utf8)
            #expect(written == file.contents, "Tests/MusicOperations/\(file.name) is stale")
        }
    }

    @Test func fragmentIsDecodedFromTheSameObjectAsTheFields() throws {
        let json = """
            {"track": {"id": "t1", "title": "Blue", "duration": 200000, "explicit": false,
              "artists": [{"id": "a1", "name": "Ann"}], "trackNumber": 2, "playCount": 7, "isLiked": true,
              "genres": ["JAZZ", "HIP_HOP"],
              "release": {"id": "r1", "title": "Kind", "kind": "ALBUM", "releasedAt": "2024-05-01T12:00:00Z",
                          "cover": null}}}
            """
        let data = try JSONDecoder().decode(GetTrackQuery.Data.self, from: Data(json.utf8))
        let track = try #require(data.track)
        #expect(track.trackSummary.title == "Blue")
        #expect(track.trackSummary.artists.first?.artistSummary.name == "Ann")
        #expect(track.genres == [.jazz, .hipHop])
        #expect(track.release.releaseSummary.kind == .album)
        #expect(track.release.releaseSummary.cover == nil)
    }

    @Test func unknownEnumValueDecodesAsUnknown() throws {
        let genres = try JSONDecoder().decode([Genre].self, from: Data(#"["ROCK", "POLKA"]"#.utf8))
        #expect(genres == [.rock, .__unknown("POLKA")])
        #expect(genres.map(\.rawValue) == ["ROCK", "POLKA"])
    }

    @Test func unionIsReadThroughTypedAccessors() throws {
        let json = """
            {"search": [
              {"__typename": "Artist", "id": "a1", "name": "Ann", "monthlyListeners": 12},
              {"__typename": "Track", "id": "t1", "title": "Blue", "duration": 1, "explicit": true, "artists": []},
              {"__typename": "Podcast", "id": "p1"}
            ]}
            """
        let results = try JSONDecoder().decode(SearchQuery.Data.self, from: Data(json.utf8)).search
        #expect(results.map(\.__typename) == ["Artist", "Track", "Podcast"])
        #expect(results[0].asArtist?.artistSummary.name == "Ann")
        #expect(results[0].asArtist?.monthlyListeners == 12)
        #expect(results[0].asTrack == nil)
        #expect(results[1].asTrack?.trackSummary.explicit == true)
        #expect(results[2].asTrack == nil && results[2].asArtist == nil && results[2].asRelease == nil)
    }

    @Test func variablesEncodeWithoutNilsAndWithDeclaredDefaults() throws {
        let search = SearchQuery(text: "blue", kinds: [.track, .artist])
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(search)) as? [String: Any]
        #expect(encoded?["text"] as? String == "blue")
        #expect(encoded?["kinds"] as? [String] == ["TRACK", "ARTIST"])
        #expect(encoded?["first"] as? Int == 10)
        let playlist = GetPlaylistQuery(id: "p1")
        let playlistVariables = try JSONSerialization.jsonObject(with: JSONEncoder().encode(playlist)) as? [String: Any]
        #expect(playlistVariables?.keys.sorted() == ["first", "id"], "after is nil and left out")
    }

    @Test func definitionMatchesTheOperationLoadedFromItsFile() throws {
        let store = try OperationStore(sources: try CodegenFixtures.queries(), schema: try CodegenFixtures.musicSchema())
        let loaded = try store["GetTrack"]
        #expect(GetTrackQuery.definition.normalizedText == loaded.normalizedText)
        #expect(GetTrackQuery.definition.kind == .query)
        #expect(GetTrackQuery.definition.name == "GetTrack")
        #expect(GetTrackQuery.definition.text == loaded.text, "no __typename to add: the texts agree")
        #expect(SearchQuery.definition.normalizedText == (try store["Search"]).normalizedText)
    }

    @Test func aNilVariableWithADeclaredDefaultIsSentWithItAsTheFileLoadedOperationSendsIt() throws {
        #expect(SearchQuery.definition.variableDefaults == ["first": 10])
        #expect(CreatePlaylistMutation.definition.variableDefaults == ["isPublic": false])
        #expect(GetTrackQuery.definition.variableDefaults.isEmpty)
        let store = try OperationStore(sources: try CodegenFixtures.queries(), schema: try CodegenFixtures.musicSchema())
        let generated = try GraphQLRequest(SearchQuery(text: "blue", first: nil))
        let loaded = try GraphQLRequest<JSONValue>(operation: store["Search"], variables: ["text": "blue"])
        // The same members (their order may differ; cache keys sort them).
        #expect(Dictionary(uniqueKeysWithValues: generated.variables.map { ($0.key, $0.value) })
            == Dictionary(uniqueKeysWithValues: loaded.variables.map { ($0.key, $0.value) }))
        #expect(generated.variables["first"] == 10)
    }
}
