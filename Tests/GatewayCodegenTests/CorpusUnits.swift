import Foundation
import GraphQLLanguage
import Testing

/// The corpus's operation folders (`operations/<group>/<source>`), each with its primary schema
/// and the files the manifest found valid against it; fragment-only files, whose only error
/// alone is an unused fragment, count as valid. The manifest lists the operation files only, not
/// the printer's `*.printed.graphql` twins beside some of them.
enum CorpusUnits {
    static let root = CodegenFixtures.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora")
    static let isAvailable = FileManager.default.fileExists(atPath: root.appendingPathComponent("manifest.json").path)

    /// One folder to generate from.
    struct Unit: Sendable, CustomTestStringConvertible {
        var source: String
        var schemaFiles: [String]
        var lenient: Bool
        var paths: [String]
        var testDescription: String { source }
    }

    private struct Outcome: Decodable { var ok: Bool }
    private struct SchemaEntry: Decodable {
        var id: String
        var path: String?
        var composed_of: [String]?
        var build_schema_strict: Outcome?
        var build_schema_assume_valid_sdl: Outcome?
    }
    private struct Validation: Decodable {
        var validated: Bool
        var valid: Bool?
        var rules: [String: Int]?
    }
    private struct DocumentEntry: Decodable {
        var path: String
        var source: String
        var primary_schema: String?
        var parse: Outcome
        var validation: [String: Validation]?
    }
    private struct Manifest: Decodable {
        var schemas: [SchemaEntry]
        var documents: [DocumentEntry]
    }

    static let all: [Unit] = {
        guard isAvailable, let data = try? Data(contentsOf: root.appendingPathComponent("manifest.json")),
              let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        else { return [] }
        var paths: [String: [String]] = [:]
        var schemaOf: [String: String] = [:]
        for document in manifest.documents {
            guard document.parse.ok, let primary = document.primary_schema,
                  let validation = document.validation?[primary], validation.validated else { continue }
            let rules = Set((validation.rules ?? [:]).keys)
            guard validation.valid == true || (!rules.isEmpty && rules == ["NoUnusedFragmentsRule"]) else { continue }
            paths[document.source, default: []].append(document.path)
            schemaOf[document.source] = primary
        }
        var units: [Unit] = []
        for source in paths.keys.sorted() {
            guard let id = schemaOf[source], let schema = manifest.schemas.first(where: { $0.id == id }) else { continue }
            let files = schema.composed_of ?? (schema.path.map { [$0] } ?? [])
            let lenient = schema.build_schema_strict?.ok == false && schema.build_schema_assume_valid_sdl?.ok == true
            let sorted = (paths[source] ?? []).sorted()
            units.append(Unit(source: source, schemaFiles: files, lenient: lenient, paths: sorted))
        }
        return units
    }()

    static func schema(for unit: Unit) throws -> Schema {
        let sources = try unit.schemaFiles.map { try CodegenFixtures.source(root.appendingPathComponent($0), name: $0) }
        return try requireSchema(Schema.build(files: sources, options: unit.lenient ? .lenient : .strict))
    }

    static func sources(for unit: Unit) throws -> [Source] {
        try unit.paths.map { try CodegenFixtures.source(root.appendingPathComponent($0), name: $0) }
    }
}
