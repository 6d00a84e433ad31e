import Foundation
import Testing

/// The shared GraphQL corpus at `<package root>/../shared/corpora`, read through its `manifest.json`.
///
/// Everything is empty when the folder is absent, so corpus tests skip instead of failing.
enum Corpus {
    /// The corpus folder, found from this file's path.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // …/Tests/GraphQLLanguageTests/Support
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

    struct ParseError: Decodable, Hashable, Sendable {
        var message: String
        var locations: [Location]
    }

    struct ParseResult: Decodable, Hashable, Sendable {
        var ok: Bool
        var error: ParseError?
        var definitions: Int?
        var definition_kinds: [String: Int]?
    }

    struct OperationEntry: Decodable, Hashable, Sendable {
        var type: String
        var name: String?
    }

    struct DocumentEntry: Decodable, Hashable, Sendable, CustomTestStringConvertible {
        var path: String
        var parse: ParseResult
        var operations: [OperationEntry]?
        var fragments: [String]?
        var testDescription: String { path }
    }

    struct SchemaEntry: Decodable, Hashable, Sendable, CustomTestStringConvertible {
        var id: String
        var path: String?
        var format: String
        var parse: ParseResult?
        var testDescription: String { path ?? id }
    }

    struct MalformedEntry: Decodable, Hashable, Sendable, CustomTestStringConvertible {
        var path: String
        var message: String
        var locations: [Location]
        var testDescription: String { path }
    }

    struct Manifest: Decodable, Sendable {
        var documents: [DocumentEntry]
        var schemas: [SchemaEntry]
        var malformed: [MalformedEntry]
    }

    static let manifest: Manifest? = {
        guard isAvailable, let data = try? Data(contentsOf: root.appendingPathComponent("manifest.json")) else {
            return nil
        }
        return try? JSONDecoder().decode(Manifest.self, from: data)
    }()

    static var documents: [DocumentEntry] { manifest?.documents ?? [] }
    static var sdlSchemas: [SchemaEntry] { (manifest?.schemas ?? []).filter { $0.format == "sdl" && $0.path != nil } }
    static var malformed: [MalformedEntry] { manifest?.malformed ?? [] }

    /// The bytes of a corpus file given by its manifest path.
    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(path)))
    }
}
