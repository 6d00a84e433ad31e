import Foundation
import GraphQLLanguage
import Testing
@testable import GatewayCLI

/// `gateway check --format json` on every file of the corpus's `invalid/` folder reports the rule
/// the file breaks at the line and column the manifest gives (graphql-js's locations), and every
/// self-contained corpus document gets the manifest's verdict.
///
/// Each case looks at its own file, but the command runs once per schema over all the files that
/// use it (`CheckCorpus.run`): building the big corpus schemas once per file made these the
/// slowest tests of the package.
@Suite(.enabled(if: CheckCorpus.isAvailable, "the corpus at ../shared/corpora is absent"))
struct CheckCommandCorpusTests {
    @Test(arguments: CheckCorpus.invalid)
    func invalidFileIsReportedWithItsRuleAtTheManifestsPlace(_ entry: CheckCorpus.InvalidEntry) async throws {
        for schemaID in entry.schemas {
            let run = try await CheckCorpus.run(.invalid, schema: schemaID)
            #expect(run.status == 1, "\(schemaID): \(run.stderr)")
            let reported = try #require(run.errors[entry.path], "\(schemaID): nothing reported for \(entry.path)")
            let found = Set(reported.map { "\($0.rule ?? "-") \($0.line):\($0.column)" })
            let expected = (entry.results[schemaID]?.errors ?? []).filter { $0.rule == entry.expected_rule }
            #expect(!expected.isEmpty)
            for error in expected {
                let location = try #require(error.locations?.first)
                #expect(found.contains("\(entry.expected_rule) \(location.line):\(location.column)"), "\(schemaID)")
            }
        }
    }
}

extension CheckCommandCorpusTests {
    /// Documents that need no fragments from other files are checked alone, as the manifest did;
    /// the others are covered at the library level (`ValidationCorpusTests`), which can hand the
    /// validator exactly the fragments the manifest lists.
    @Test(arguments: CheckCorpus.selfContainedDocuments)
    func documentGetsTheManifestsVerdictFromGatewayCheck(_ entry: CheckCorpus.DocumentEntry) async throws {
        let primary = try #require(entry.primary_schema)
        let run = try await CheckCorpus.run(.selfContainedDocuments, schema: primary)
        let reported = run.errors[entry.path] ?? []
        let rules = Set(reported.compactMap(\.rule))
        #expect(rules == Set((entry.validation?[primary]?.rules ?? [:]).keys), "\(reported)")
        #expect(run.status == (run.errors.isEmpty ? 0 : 1), "\(run.stderr)")
    }
}

/// The parts of the corpus manifest `gateway check` is checked against.
enum CheckCorpus {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // …/Tests/GatewayCLITests
        .deletingLastPathComponent()  // …/Tests
        .deletingLastPathComponent()  // the package root
        .deletingLastPathComponent()  // its parent
        .appendingPathComponent("shared/corpora")

    static let isAvailable = FileManager.default.fileExists(atPath: root.appendingPathComponent("manifest.json").path)

    struct Location: Decodable, Hashable, Sendable {
        var line: Int
        var column: Int
    }

    struct ReportedError: Decodable, Hashable, Sendable {
        var message: String
        var locations: [Location]?
        var rule: String?
    }

    struct Result: Decodable, Hashable, Sendable {
        var errors: [ReportedError]
    }

    struct InvalidEntry: Decodable, Hashable, Sendable, CustomTestStringConvertible {
        var path: String
        var expected_rule: String
        var schemas: [String]
        var results: [String: Result]
        var testDescription: String { path }
    }

    struct Outcome: Decodable, Hashable, Sendable {
        var ok: Bool
    }

    struct SchemaEntry: Decodable, Hashable, Sendable {
        var id: String
        var path: String?
        var composed_of: [String]?
        var build_schema_strict: Outcome?
        var build_schema_assume_valid_sdl: Outcome?

        var files: [String] { composed_of ?? (path.map { [$0] } ?? []) }
        var needsLenient: Bool { build_schema_strict?.ok == false && build_schema_assume_valid_sdl?.ok == true }
    }

    struct Validation: Decodable, Hashable, Sendable {
        var validated: Bool
        var rules: [String: Int]?
    }

    struct Parse: Decodable, Hashable, Sendable {
        var ok: Bool
    }

    struct ExternalFragment: Decodable, Hashable, Sendable {
        var fragment: String
    }

    struct DocumentEntry: Decodable, Hashable, Sendable, CustomTestStringConvertible {
        var path: String
        var primary_schema: String?
        var parse: Parse
        var external_fragments: [ExternalFragment]?
        var validation: [String: Validation]?
        var testDescription: String { path }
    }

    struct Manifest: Decodable, Sendable {
        var schemas: [SchemaEntry]
        var documents: [DocumentEntry]
        var invalid: [InvalidEntry]
    }

    static let manifest: Manifest? = {
        guard isAvailable, let data = try? Data(contentsOf: root.appendingPathComponent("manifest.json")) else {
            return nil
        }
        return try? JSONDecoder().decode(Manifest.self, from: data)
    }()

    static var invalid: [InvalidEntry] { manifest?.invalid ?? [] }

    /// Validated documents that take no fragments from other files.
    static var selfContainedDocuments: [DocumentEntry] {
        (manifest?.documents ?? []).filter { entry in
            guard entry.parse.ok, let primary = entry.primary_schema, entry.validation?[primary]?.validated == true
            else { return false }
            return (entry.external_fragments ?? []).isEmpty
        }
    }

    static func schema(_ id: String) -> SchemaEntry? { manifest?.schemas.first { $0.id == id } }
}

