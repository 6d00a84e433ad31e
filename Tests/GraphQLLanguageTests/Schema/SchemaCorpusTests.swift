import Foundation
import GatewayTestSupport
import GraphQLLanguage
import Testing

/// Every schema of the corpus builds (or fails) as graphql-core's did, with the same problems.
/// Building big schemas is heavy in a debug build: the suite runs off the cooperative pool, and
/// reuses the builds `ValidationCorpus` keeps for the whole run.
@Suite(.enabled(if: ValidationCorpus.isAvailable, "the corpus at ../shared/corpora is absent"), .offPool)
struct SchemaCorpusTests {
    @Test(arguments: ValidationCorpus.sdlSchemas)
    func sdlSchemaBuildsOrFailsAsTheManifestSays(_ entry: ValidationCorpus.SchemaEntry) async throws {
        let sources = try entry.files.map(ValidationCorpus.source)
        // The shared build is the strict one unless graphql-core needed `assume_valid_sdl`.
        let strict = entry.needsLenient ? Schema.build(sources: sources) : try await ValidationCorpus.schema(entry.id)
        #expect((strict.schema != nil) == (entry.build_schema_strict?.ok ?? entry.builds ?? false))

        let expected = (entry.sdl_validation_errors ?? []).map { error in
            "\(ValidationCorpus.normalized(error.message)) \(error.locations?.map { "\($0.line):\($0.column)" } ?? [])"
        }
        let actual = strict.diagnostics.filter { $0.rule != nil }.map { diagnostic in
            let places = diagnostic.locations.map { "\($0.line):\($0.column)" }
            return "\(ValidationCorpus.normalized(diagnostic.message)) \(places)"
        }
        // The manifest lists at most 50 errors but counts them all.
        #expect(actual.count == entry.sdl_validation_error_count ?? expected.count)
        if actual.count == expected.count {
            #expect(actual.sorted() == expected.sorted())
        } else {
            #expect(Set(expected).isSubset(of: Set(actual)))
        }

        if entry.needsLenient {
            let lenient = try await ValidationCorpus.schema(entry.id)
            #expect(lenient.schema != nil)
            #expect(lenient.errors.isEmpty)
            #expect(lenient.warnings.count == entry.sdl_validation_error_count ?? expected.count)
        }
    }

    @Test(arguments: ValidationCorpus.schemas.filter { $0.builds == true })
    func builtSchemaHasTheManifestsTypesDirectivesAndRoots(_ entry: ValidationCorpus.SchemaEntry) async throws {
        let result = try await ValidationCorpus.schema(entry.id)
        let schema = try #require(result.schema, "\(result.diagnostics.map(\.description))")
        let stats = try #require(entry.stats)
        // The manifest counts the types without the introspection types.
        #expect(schema.typeNames.filter { !$0.hasPrefix("__") }.count == stats.types)
        #expect(schema.directives.map(\.name).sorted() == stats.directives.sorted())
        #expect(schema.queryType?.name == stats.query_type)
        #expect(schema.mutationType?.name == stats.mutation_type)
        #expect(schema.subscriptionType?.name == stats.subscription_type)
    }
}
