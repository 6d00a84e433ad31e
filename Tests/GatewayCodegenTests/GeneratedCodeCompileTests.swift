import Foundation
import GatewayCodegen
import GraphQLLanguage
import GatewayTestSupport
import Testing

/// Generated code type-checks in the Swift 6 language mode with warnings as errors, against the
/// Gateway and GraphQLLanguage modules of this build: for `Queries/`, for a schema full of
/// awkward names, and for every operation folder of the corpus.
@Suite(.offPool, .enabled(if: SwiftTypecheck.isAvailable, "no swiftc on PATH, or no built Gateway module under .build"))
struct GeneratedCodeCompileTests {
    @Test func musicQueriesTypecheckWithoutWarnings() async throws {
        let problems = try await SwiftTypecheck.problems(in: try CodegenFixtures.musicFiles())
        #expect(problems == nil, "\(problems ?? "")")
    }

    @Test func internalAccessAndMappedScalarsTypecheck() async throws {
        let configuration = CodegenConfiguration(
            scalars: ["DateTime": "Foundation.Date", "Milliseconds": "Int"], access: .internal)
        let files = try CodegenFixtures.musicFiles(configuration)
        let release = try #require(files.first { $0.name == "ReleaseSummary.swift" })
        #expect(release.contents.contains("import Foundation"))
        #expect(release.contents.contains("let releasedAt: Foundation.Date"))
        #expect(!release.contents.contains("public "))
        let problems = try await SwiftTypecheck.problems(in: files)
        #expect(problems == nil, "\(problems ?? "")")
    }

    @Test func awkwardNamesTypecheck() async throws {
        let result = CodeGenerator(schema: try CodegenFixtures.schema(AwkwardSchema.sdl))
            .generate([Source(AwkwardSchema.operations, name: "Awkward.graphql")])
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let problems = try await SwiftTypecheck.problems(in: result.files)
        #expect(problems == nil, "\(problems ?? "")")
    }
}

/// Every operation folder of the corpus, generated and type-checked: anonymous operations (each
/// alone in its file) get types named after their files, and types whose names differ only by
/// case get distinct file names.
@Suite(.offPool, .enabled(if: CorpusUnits.isAvailable && SwiftTypecheck.isAvailable,
                "the corpus at ../shared/corpora, swiftc or the built modules are absent"))
struct CorpusCompileTests {
    @Test(arguments: CorpusUnits.all)
    func corpusFolderGeneratesCodeThatTypechecks(_ unit: CorpusUnits.Unit) async throws {
        let schema = try CorpusUnits.schema(for: unit)
        let result = CodeGenerator(schema: schema).generate(try CorpusUnits.sources(for: unit))
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.warnings.allSatisfy { $0.message.hasPrefix("This anonymous ") }, "\(result.warnings)")
        #expect(!result.files.isEmpty)
        #expect(Set(result.files.map { $0.name.lowercased() }).count == result.files.count,
                "no two files would overwrite each other on a case-insensitive file system")
        let problems = try await SwiftTypecheck.problems(in: result.files)
        #expect(problems == nil, "\(problems ?? "")")
    }
}
