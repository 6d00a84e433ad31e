import GraphQLLanguage
import Testing

/// Compilation units: the files of one folder are validated together.
@Suite struct QueryFileCheckTests {
    static let schema: Schema? = Schema.build(sources: [Source("""
        type Query { track(id: ID!): Track, tracks: [Track!]! }
        type Track { id: ID!, title: String!, artist: Artist! }
        type Artist { name: String! }
        """)]).schema

    func check(_ files: [String: String]) throws -> QueryFileCheck {
        let schema = try #require(Self.schema)
        return QueryFileCheck(sources: files.map { Source($0.value, name: $0.key) }, schema: schema)
    }

    func places(_ check: QueryFileCheck) -> [String] {
        check.diagnostics.map { diagnostic in
            let location = diagnostic.locations.first
            return "\(location?.source?.name ?? ""):\(location?.line ?? 0) \(diagnostic.rule ?? "syntax")"
        }
    }

    @Test func fragmentsFromOtherFilesOfTheFolderAreKnownAndUsed() throws {
        let check = try check([
            "Queries/Fragments.graphql": "fragment TrackParts on Track { id title artist { ...ArtistParts } }",
            "Queries/Artist.graphql": "fragment ArtistParts on Artist { name }",
            "Queries/Tracks.graphql": "query Tracks { tracks { ...TrackParts } }",
        ])
        #expect(check.diagnostics.isEmpty)
        #expect(check.summary == "3 files, 1 operation, 2 fragments: 0 errors")
    }

    @Test func eachFolderIsItsOwnUnit() throws {
        let check = try check([
            "A/Fragments.graphql": "fragment TrackParts on Track { id }\nfragment Spare on Track { title }",
            "A/Tracks.graphql": "query Tracks { tracks { ...TrackParts } }",
            "B/Track.graphql": "query Track {\n  track(id: 1) { ...TrackParts }\n}",
        ])
        #expect(places(check) == [
            "A/Fragments.graphql:2 NoUnusedFragmentsRule", "B/Track.graphql:2 KnownFragmentNamesRule",
        ])
        #expect(check.errorCount == 2)
    }

    @Test func namesMustBeUniqueAcrossTheUnit() throws {
        let check = try check([
            "Q/One.graphql": "query Tracks { tracks { id } }",
            "Q/Two.graphql": "query Tracks { tracks { title } }",
        ])
        #expect(places(check) == ["Q/One.graphql:1 UniqueOperationNamesRule"])
        #expect(check.diagnostics.first?.locations.map(\.source?.name) == ["Q/One.graphql", "Q/Two.graphql"])
    }

    @Test func aFileThatDoesNotParseIsReportedAndTheRestChecked() throws {
        let check = try check([
            "Q/Broken.graphql": "query {",
            "Q/Fine.graphql": "query Fine { tracks { nope } }",
        ])
        #expect(places(check) == ["Q/Broken.graphql:1 syntax", "Q/Fine.graphql:1 FieldsOnCorrectTypeRule"])
        #expect(check.summary == "2 files, 1 operation, 0 fragments: 2 errors")
    }
}
