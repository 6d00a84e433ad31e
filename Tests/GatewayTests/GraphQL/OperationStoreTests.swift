import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

@Suite struct OperationStoreTests {
    @Test func queriesFolderIsValidAgainstTheSchema() {
        let outcome = expectValidQueryFiles(in: "Queries", schema: "Schemas")
        #expect((outcome?.queries?.operationCount ?? 0) >= 8)
    }

    @Test func loadsEveryOperationOfTheFolderByName() throws {
        let store = try GraphQLFixtures.store()
        #expect(store.names == [
            "CreatePlaylist", "GetArtist", "GetPlaylist", "GetRelease", "GetTrack", "LikeTrack", "Me",
            "MyCollection", "Search", "UploadPlaylistCover",
        ])
        #expect(store.fragmentNames == ["ArtistSummary", "ReleaseSummary", "TrackSummary"])
        #expect(store.sourceNames.count == 11)
        let getTrack = try store["GetTrack"]
        #expect(getTrack.kind == .query)
        #expect(getTrack.variableNames == ["id"])
        #expect(getTrack.location?.line == 1)
        #expect(getTrack.location?.source?.name.hasSuffix("Queries/GetTrack.graphql") == true)
        #expect(try store["LikeTrack"].kind == .mutation)
    }

    @Test func eachOperationCarriesOnlyTheFragmentsItUses() throws {
        let store = try GraphQLFixtures.store()
        #expect(try store["Me"].fragmentNames.isEmpty)
        #expect(!(try store["Me"].text.contains("fragment")))
        #expect(try store["GetTrack"].fragmentNames == ["ArtistSummary", "ReleaseSummary", "TrackSummary"])
        #expect(try store["GetPlaylist"].fragmentNames == ["ArtistSummary", "TrackSummary"])
        let text = try store["GetPlaylist"].text
        #expect(text.hasPrefix("query GetPlaylist("))
        #expect(text.contains("fragment TrackSummary on Track"))
        #expect(text.contains("fragment ArtistSummary on Artist"))
        #expect(!text.contains("ReleaseSummary"))
        // The text sent parses and validates on its own: nothing missing, nothing unused.
        let document = try Document(parsing: text)
        #expect(Validator(schema: try GraphQLFixtures.schema()).validate(document).isEmpty)
    }

    @Test func normalizedTextAndKeyPartAreComputedAtLoad() throws {
        let operation = try GraphQLFixtures.store()["GetTrack"]
        func text(_ name: String) throws -> String {
            String(decoding: try Data(contentsOf: GraphQLFixtures.queries.appendingPathComponent(name)), as: UTF8.self)
        }
        let document = try Document(parsing: try text("GetTrack.graphql") + text("Fragments.graphql"))
        let normalized = try Normalizer.normalize(document, operationName: "GetTrack")
        #expect(operation.normalizedText == normalized.text)
        #expect(operation.cacheKeyOperation.text == normalized.text)
        #expect(operation.cacheKeyOperation.name == "GetTrack")
        let endpoint = "https://api.example.com/graphql"
        #expect(operation.cacheKeyOperation.key(variables: ["id": "t1"], endpoint: endpoint, partition: .anonymous)
            == CacheKey.graphQL(operation: normalized.text, operationName: "GetTrack", variables: ["id": "t1"],
                                endpoint: endpoint, partition: .anonymous))
    }

    @Test func unknownNameListsNearMatches() throws {
        let store = try GraphQLFixtures.store()
        let error = try #require(throws: GatewayError.self) { try store["GetTrak"] }
        #expect(error.kind == .unknownOperation)
        #expect(error.message.contains("\"GetTrak\""))
        #expect(error.message.contains("did you mean \"GetTrack\""))
        #expect(error.fix?.contains("10 operations") == true)
        let lower = try #require(throws: GatewayError.self) { try store.operation(named: "getartist") }
        #expect(lower.message.contains("\"GetArtist\""))
        #expect(!store.contains("Nothing"))
    }

    @Test func everyProblemIsReportedAtOnceWithItsPlace() throws {
        let folder = try GraphQLFixtures.folder([
            "A.graphql": "query A {\n  track(id: \"1\") {\n    titel\n  }\n}\n",
            "B.graphql": "query B {\n  me { id \n",
            "C.graphql": "query C($n: Int) {\n  artist(id: $n) { id }\n}\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        // B's syntax error is reported; A and C are checked once everything parses.
        let syntax = try #require(throws: GatewayError.self) {
            try OperationStore(directory: folder, schema: GraphQLFixtures.schema())
        }
        #expect(syntax.kind == .invalidOperation)
        #expect(syntax.diagnostics.count == 1)
        #expect(syntax.message.contains("B.graphql:3:1: error: Syntax Error"))

        try Data("query B {\n  me { id }\n}\n".utf8).write(to: folder.appendingPathComponent("B.graphql"))
        let invalid = try #require(throws: GatewayError.self) {
            try OperationStore(directory: folder, schema: GraphQLFixtures.schema())
        }
        #expect(invalid.diagnostics.count == 2)
        #expect(invalid.message.contains("A.graphql:3:5: error: Cannot query field \"titel\" on type \"Track\""))
        #expect(invalid.message.contains("C.graphql:1:9: error: Variable \"$n\" of type \"Int\" used in position "
            + "expecting type \"ID!\""))
        #expect(invalid.message.hasPrefix("2 problems"))
    }

    @Test func withoutASchemaStructuralProblemsAreStillFound() throws {
        let folder = try GraphQLFixtures.folder([
            "A.graphql": "query A { ...Missing }\nquery Twice { a }\n",
            "B.graphql": "query Twice { b }\n{ anonymous }\nfragment F on T { x }\nfragment F on T { y }\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: GatewayError.self) { try OperationStore(directory: folder) }
        let messages = error.diagnostics.map(\.message)
        #expect(messages.contains { $0.contains("only one operation named \"Twice\"") })
        #expect(messages.contains { $0.contains("needs a name") })
        #expect(messages.contains { $0.contains("only one fragment named \"F\"") })
        #expect(error.diagnostics.first { $0.message.contains("Twice") }?.locations.count == 2)
    }

    @Test func aMissingFragmentIsReportedAtTheOperation() throws {
        let folder = try GraphQLFixtures.folder(["A.graphql": "query A { ...Missing }\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: GatewayError.self) { try OperationStore(directory: folder) }
        #expect(error.message.contains("A.graphql:1:1: error: Unknown fragment \"Missing\""))
    }

    @Test func fragmentsResolveAcrossFilesAndSubfolders() throws {
        let folder = try GraphQLFixtures.folder(["Ops.graphql": "query Q { ...Shared }\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let nested = folder.appendingPathComponent("Fragments")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try Data("fragment Shared on Query { me { id } }\nfragment Unused on Query { me { plan } }\n".utf8)
            .write(to: nested.appendingPathComponent("Shared.gql"))
        let store = try OperationStore(directory: folder)
        #expect(try store["Q"].fragmentNames == ["Shared"])
        #expect(try store["Q"].text.contains("fragment Shared on Query"))
        #expect(!(try store["Q"].text.contains("Unused")))
    }

    @Test func unreadablePlacesAreClearErrors() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)")
        let error = try #require(throws: GatewayError.self) { try OperationStore(directory: missing) }
        #expect(error.message.contains("is not a folder"))
        let empty = try GraphQLFixtures.folder(["notes.txt": "hello"])
        defer { try? FileManager.default.removeItem(at: empty) }
        let none = try #require(throws: GatewayError.self) { try OperationStore(directory: empty) }
        #expect(none.message.contains("holds no gql, graphql files"))
    }

    @Test func anOperationCanBeMadeFromText() throws {
        let schema = try GraphQLFixtures.schema()
        let operation = try GraphQLOperation("query Who { me { id } }", schema: schema)
        #expect(operation.name == "Who")
        #expect(operation.description == "query Who")
        let invalid = try #require(throws: GatewayError.self) {
            try GraphQLOperation("query Who { me { age } }", schema: schema, sourceName: "Who.graphql")
        }
        #expect(invalid.message.contains("Who.graphql:1:18: error: Cannot query field \"age\""))
        let several = try #require(throws: GatewayError.self) { try GraphQLOperation("query A { a } query B { b }") }
        #expect(several.kind == .invalidOperation)
        let unknown = try #require(throws: GatewayError.self) {
            try GraphQLOperation("query Alpha { a } query Beta { b }", operationName: "Alpah")
        }
        #expect(unknown.kind == .unknownOperation)
        #expect(unknown.message.contains("did you mean \"Alpha\""))
    }
}
