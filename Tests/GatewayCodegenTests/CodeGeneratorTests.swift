import Foundation
import GatewayCodegen
import GraphQLLanguage
import GatewayTestSupport
import Testing

/// What `CodeGenerator` makes of the music schema and `Queries/`, and how it refuses bad input.
@Suite(.offPool) struct CodeGeneratorTests {
    @Test func musicQueriesGiveOneFilePerOperationFragmentAndUsedSchemaType() throws {
        let names = try CodegenFixtures.musicFiles().map(\.name)
        #expect(names == [
            "ArtistSummary.swift", "CreatePlaylistMutation.swift", "Genre.swift", "GetArtistQuery.swift",
            "GetPlaylistQuery.swift", "GetReleaseQuery.swift", "GetTrackQuery.swift", "LikeTrackInput.swift",
            "LikeTrackMutation.swift", "MeQuery.swift", "MyCollectionQuery.swift", "Plan.swift", "ReleaseKind.swift",
            "ReleaseSummary.swift", "SearchKind.swift", "SearchQuery.swift", "TrackSummary.swift",
            "UploadPlaylistCoverMutation.swift",
        ])
    }

    @Test func sameInputGivesTheSameBytesWhateverTheFileOrder() throws {
        let schema = try CodegenFixtures.musicSchema()
        let queries = try CodegenFixtures.queries()
        let first = CodeGenerator(schema: schema).generate(queries).files
        let second = CodeGenerator(schema: schema).generate(queries.reversed()).files
        #expect(!first.isEmpty)
        #expect(first == second)
    }

    @Test func everyFileStartsWithTheHeaderAndOperationsImportBothModules() throws {
        for file in try CodegenFixtures.musicFiles() {
            #expect(file.contents.hasPrefix(CodeGenerator.header + "\n"), "\(file.name)")
            if file.name.hasSuffix("Query.swift") || file.name.hasSuffix("Mutation.swift") {
                #expect(file.contents.contains("\nimport Gateway\nimport GraphQLLanguage\n"), "\(file.name)")
            }
        }
    }

    @Test func validationErrorStopsGenerationWithFileLineAndColumn() throws {
        let bad = Source("query Bad {\n  track(id: 1) { nope }\n}\n", name: "Queries/Bad.graphql")
        let result = CodeGenerator(schema: try CodegenFixtures.musicSchema()).generate(try CodegenFixtures.queries() + [bad])
        #expect(result.files.isEmpty)
        let first = try #require(result.diagnostics.first)
        #expect(first.rendered().hasPrefix("Queries/Bad.graphql:2:18: error: Cannot query field \"nope\" on type \"Track\"."))
    }

    @Test func syntaxErrorStopsGenerationWithFileLineAndColumn() throws {
        let bad = Source("query Bad {\n  me {\n}\n", name: "Bad.graphql")
        let result = CodeGenerator(schema: try CodegenFixtures.musicSchema()).generate([bad])
        #expect(result.files.isEmpty)
        #expect(result.diagnostics.first?.rendered().hasPrefix("Bad.graphql:3:1: error: Syntax Error") == true,
                "\(result.diagnostics)")
    }

    @Test func definitionCarriesTheNormalizedTextOfTheOperationAsWritten() throws {
        let queries = try CodegenFixtures.queries()
        let documents = try queries.map { try Parser.parse($0) }
        let merged = Document(definitions: documents.flatMap(\.definitions))
        let normalized = try Normalizer.normalizedText(of: OperationSelection(document: merged, operationName: "Search"))
        let search = try #require(try CodegenFixtures.musicFiles().first { $0.name == "SearchQuery.swift" })
        #expect(search.contents.contains("normalizedText: \"\(normalized)\","))
        #expect(search.contents.contains("normalizedTextHash: \"\(SHA256.hexDigest(normalized))\""))
    }

    @Test func typenameIsAddedToSelectionsOnInterfacesAndUnions() throws {
        let result = CodeGenerator(schema: try CodegenFixtures.schema(AwkwardSchema.sdl))
            .generate([Source("query N { node(id: \"1\") { id ... on Thing { status } } }", name: "N.graphql")])
        let file = try #require(result.files.first { $0.name == "NQuery.swift" })
        #expect(file.contents.contains("  node(id: \"1\") {\n                __typename\n                id\n"))
        #expect(file.contents.contains(#"normalizedText: "query N{node(id:\"1\"){id...on Thing{status}}}","#))
        #expect(file.contents.contains("public let asThing: AsThing?"))
    }

    @Test func blockStringsKeepTheirTripleQuotesInTheTextLiteral() throws {
        let result = CodeGenerator(schema: try CodegenFixtures.schema(AwkwardSchema.sdl))
            .generate([Source(AwkwardSchema.operations, name: "Awkward.graphql")])
        let things = try #require(result.files.first { $0.name == "ThingsQuery.swift" })
        #expect(things.contents.contains(#"search(text: ""\"block "quoted" text""\") {"#))
    }

    @Test func swiftKeywordsAreEscapedWithBackticks() throws {
        let result = CodeGenerator(schema: try CodegenFixtures.schema(AwkwardSchema.sdl))
            .generate([Source(AwkwardSchema.operations, name: "Awkward.graphql")])
        let things = try #require(result.files.first { $0.name == "ThingsQuery.swift" })
        #expect(things.contents.contains("public var `in`: Filter?"))
        #expect(things.contents.contains("public let `default`: String?"))
        #expect(things.contents.contains("public let `self`: Int?"))
        #expect(things.contents.contains("public let `Type`: Bool"))
        let kind = try #require(result.files.first { $0.name == "Kind.swift" })
        #expect(kind.contents.contains("case `self`\n"))
        #expect(kind.contents.contains("case RAW_VALUE\n"), "a value that would be named rawValue keeps its spelling")
        #expect(result.files.contains { $0.name == "Error_.swift" }, "a type named like Swift's Error gets a _")
    }

    @Test func defaultsBecomeDefaultArguments() throws {
        let result = CodeGenerator(schema: try CodegenFixtures.schema(AwkwardSchema.sdl))
            .generate([Source(AwkwardSchema.operations, name: "Awkward.graphql")])
        let things = try #require(result.files.first { $0.name == "ThingsQuery.swift" })
        #expect(things.contents.contains("""
                    `default`: Int? = 3,
                    kinds: [Kind]? = [.`self`, .type],
                    flag: Bool? = false,
                    `where`: Where? = Where(self: .`default`, text: "x")
                ) {
            """))
        let filter = try #require(result.files.first { $0.name == "Filter.swift" })
        #expect(filter.contents.contains("public final class Filter: Encodable, Sendable"), "it contains itself")
        let where_ = try #require(result.files.first { $0.name == "Where.swift" })
        #expect(where_.contents.contains("public init(`self` self_: Kind? = nil,"))
        #expect(where_.contents.contains("self.`self` = self_\n"))
    }
}
