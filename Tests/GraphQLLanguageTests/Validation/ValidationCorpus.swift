import Foundation
import GatewayTestSupport
import GraphQLLanguage
import Testing

/// The shared corpus at `<package root>/../shared/corpora`, seen through the parts of
/// `manifest.json` that schema building and validation are checked against.
///
/// Everything is empty when the folder is absent, so the tests that use it are skipped.
enum ValidationCorpus {
    /// The corpus folder, found from this file's path.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // …/Tests/GraphQLLanguageTests/Validation
        .deletingLastPathComponent()  // …/Tests/GraphQLLanguageTests
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
        var source: String?
        var rule: String?
    }

    struct BuildOutcome: Decodable, Hashable, Sendable {
        var ok: Bool
    }

    struct SchemaStats: Decodable, Hashable, Sendable {
        var types: Int
        var directives: [String]
        var query_type: String?
        var mutation_type: String?
        var subscription_type: String?
    }

    struct SchemaEntry: Decodable, Hashable, Sendable, CustomTestStringConvertible {
        var id: String
        var stats: SchemaStats?
        var path: String?
        var format: String
        var composed_of: [String]?
        var sdl_validation_errors: [ReportedError]?
        var sdl_validation_error_count: Int?
        var build_schema_strict: BuildOutcome?
        var build_schema_assume_valid_sdl: BuildOutcome?
        var validation_mode: String?
        var builds: Bool?
        var testDescription: String { id }

        /// The files the schema is built from.
        var files: [String] { composed_of ?? (path.map { [$0] } ?? []) }
        /// Whether graphql-core builds it only when told to assume the SDL is valid.
        var needsLenient: Bool { build_schema_strict?.ok == false && build_schema_assume_valid_sdl?.ok == true }
    }

    struct ExternalFragment: Decodable, Hashable, Sendable {
        var fragment: String
        var from: String
    }

    struct ValidationOutcome: Decodable, Hashable, Sendable {
        var validated: Bool
        var valid: Bool?
        var rules: [String: Int]?
        var errors: [ReportedError]?
    }

    struct ParseOutcome: Decodable, Hashable, Sendable {
        var ok: Bool
    }

    struct DocumentEntry: Decodable, Hashable, Sendable, CustomTestStringConvertible {
        var path: String
        var primary_schema: String?
        var parse: ParseOutcome
        var fragment_only: Bool?
        var external_fragments: [ExternalFragment]?
        var validation: [String: ValidationOutcome]?
        var valid: Bool?
        var testDescription: String { path }
    }

    struct InvalidResult: Decodable, Hashable, Sendable {
        var error_count: Int
        var rules_fired: [String]
        var errors: [ReportedError]
    }

    struct InvalidEntry: Decodable, Hashable, Sendable, CustomTestStringConvertible {
        var path: String
        var expected_rule: String
        var schemas: [String]
        var results: [String: InvalidResult]
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

    static var schemas: [SchemaEntry] { manifest?.schemas ?? [] }
    static var sdlSchemas: [SchemaEntry] { schemas.filter { $0.format.hasPrefix("sdl") } }
    static var introspectionSchemas: [SchemaEntry] { schemas.filter { $0.format == "introspection-json" } }
    static var invalid: [InvalidEntry] { manifest?.invalid ?? [] }

    /// Documents that parse and were validated against their primary schema.
    static var validatedDocuments: [DocumentEntry] {
        (manifest?.documents ?? []).filter { entry in
            guard entry.parse.ok, let primary = entry.primary_schema else { return false }
            return entry.validation?[primary]?.validated == true
        }
    }

    static func schemaEntry(_ id: String) -> SchemaEntry? { schemas.first { $0.id == id } }

    static func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    static func source(_ path: String) throws -> Source {
        Source(bytes: Array(try Data(contentsOf: url(path))), name: path)
    }

    /// Schemas built once per test run, by id, however many cases ask at once.
    private static let cache = OnceCache<String, SchemaBuildResult>()

    /// The corpus schema `id` as graphql-core built it: strictly, or leniently when graphql-core
    /// needed `assume_valid_sdl` (an introspection result is read as such), built once.
    static func schema(_ id: String) async throws -> SchemaBuildResult {
        try await cache.value(for: id) {
            guard let entry = schemaEntry(id) else { throw MissingEntry(description: "no schema \(id) in the manifest") }
            if entry.format == "introspection-json" {
                guard let path = entry.path else { throw MissingEntry(description: "schema \(id) has no path") }
                return Schema.build(introspectionJSON: Array(try Data(contentsOf: url(path))))
            }
            return Schema.build(sources: try entry.files.map(source), options: entry.needsLenient ? .lenient : .strict)
        }
    }

    /// A manifest entry the tests need is missing.
    struct MissingEntry: Error, CustomStringConvertible {
        var description: String
    }

    /// graphql-core quotes names with `'`, graphql-js with `"`, and graphql-core names directive
    /// locations in lower case: compare with both differences removed.
    static func normalized(_ message: String) -> String {
        var text = message.replacingOccurrences(of: "\"", with: "'")
        if let range = text.range(of: "may not be used on ") {
            text = text[..<range.upperBound] + text[range.upperBound...].lowercased()
        }
        return text
    }
}
