import Foundation
import GatewayTestSupport
import GraphQLLanguage
import Testing

/// Every corpus document validates against its primary schema as graphql-core's run did: the same
/// verdict, the same rules fired, the same messages (quotes normalized) at the same places.
/// Big schemas make validation heavy in a debug build: the suite runs off the cooperative pool.
@Suite(.enabled(if: ValidationCorpus.isAvailable, "the corpus at ../shared/corpora is absent"), .offPool)
struct ValidationCorpusTests {
    /// The document and the definitions of the fragments it takes from other files of its folder,
    /// validated together as the manifest did.
    static func validate(_ entry: ValidationCorpus.DocumentEntry) async throws -> [Diagnostic] {
        let primary = try #require(entry.primary_schema)
        let built = try await ValidationCorpus.schema(primary)
        let schema = try #require(built.schema, "schema \(primary) did not build: \(built.errors)")
        var documents = [try Parser.parse(try ValidationCorpus.source(entry.path))]
        var byFile: [String: [String]] = [:]
        for external in entry.external_fragments ?? [] { byFile[external.from, default: []].append(external.fragment) }
        for (file, names) in byFile.sorted(by: { $0.key < $1.key }) {
            var document = try Parser.parse(try ValidationCorpus.source(file))
            document.definitions = document.definitions.filter { definition in
                if case .fragment(let fragment) = definition { return names.contains(fragment.name.value) }
                return false
            }
            documents.append(document)
        }
        return Validator(schema: schema).validate(documents)
    }

    @Test(arguments: ValidationCorpus.validatedDocuments)
    func documentGetsTheManifestsVerdictAndRules(_ entry: ValidationCorpus.DocumentEntry) async throws {
        let primary = try #require(entry.primary_schema)
        let outcome = try #require(entry.validation?[primary])
        let diagnostics = try await Self.validate(entry)
        let rules = Set(diagnostics.compactMap(\.rule))
        #expect(rules == Set((outcome.rules ?? [:]).keys), "\(diagnostics.map(\.description))")
        let onlyUnusedFragments = rules.isEmpty || rules == ["NoUnusedFragmentsRule"]
        #expect((entry.fragment_only == true ? onlyUnusedFragments : diagnostics.isEmpty) == (entry.valid ?? false))
    }

    @Test(arguments: ValidationCorpus.validatedDocuments.filter {
        $0.validation?[$0.primary_schema ?? ""]?.valid == false
    })
    func documentGetsTheManifestsMessagesAndLocations(_ entry: ValidationCorpus.DocumentEntry) async throws {
        let primary = try #require(entry.primary_schema)
        let outcome = try #require(entry.validation?[primary])
        let expected = (outcome.errors ?? []).map { error in
            "\(error.source ?? ""):\((error.locations ?? []).map { "\($0.line):\($0.column)" }) "
                + ValidationCorpus.normalized(error.message)
        }
        let actual = try await Self.validate(entry).map { diagnostic in
            let places = diagnostic.locations.map { "\($0.line):\($0.column)" }
            return "\(diagnostic.locations.first?.source?.name ?? ""):\(places) "
                + ValidationCorpus.normalized(diagnostic.message)
        }
        #expect(actual.sorted() == expected.sorted())
    }

    @Test(arguments: ValidationCorpus.invalid)
    func invalidDocumentReportsItsRuleWhereTheManifestSays(_ entry: ValidationCorpus.InvalidEntry) async throws {
        for schemaID in entry.schemas {
            let result = try #require(entry.results[schemaID])
            let built = try await ValidationCorpus.schema(schemaID)
            let schema = try #require(built.schema)
            let document = try Parser.parse(try ValidationCorpus.source(entry.path))
            let diagnostics = Validator(schema: schema).validate(document)
            #expect(Set(diagnostics.compactMap(\.rule)) == Set(result.rules_fired), "\(schemaID)")
            let expected = result.errors.map { error in
                let places = (error.locations ?? []).map { "\($0.line):\($0.column)" }
                return "\(places) \(ValidationCorpus.normalized(error.message))"
            }
            let actual = diagnostics.map { diagnostic in
                let places = diagnostic.locations.map { "\($0.line):\($0.column)" }
                return "\(places) \(ValidationCorpus.normalized(diagnostic.message))"
            }
            #expect(actual.sorted() == expected.sorted(), "\(schemaID)")
        }
    }
}
