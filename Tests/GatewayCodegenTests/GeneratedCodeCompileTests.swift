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

/// Every operation folder of the corpus: generated and type-checked, or refused for the reason
/// `CorpusUnits.refusals` gives.
@Suite(.offPool, .enabled(if: CorpusUnits.isAvailable && SwiftTypecheck.isAvailable,
                "the corpus at ../shared/corpora, swiftc or the built modules are absent"))
struct CorpusCompileTests {
    @Test(arguments: CorpusUnits.all)
    func corpusFolderGeneratesCodeThatTypechecks(_ unit: CorpusUnits.Unit) async throws {
        let schema = try CorpusUnits.schema(for: unit)
        let result = CodeGenerator(schema: schema).generate(try CorpusUnits.sources(for: unit))
        if let refusal = unit.refusal {
            #expect(result.files.isEmpty)
            #expect(result.diagnostics.contains { $0.message.contains(refusal) }, "\(result.diagnostics)")
            return
        }
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(!result.files.isEmpty)
        let problems = try await SwiftTypecheck.problems(in: result.files)
        #expect(problems == nil, "\(problems ?? "")")
    }
}
