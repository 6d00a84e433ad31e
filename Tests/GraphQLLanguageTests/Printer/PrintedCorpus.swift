import Foundation
import Testing

/// The corpus entries that have a graphql-js-printed reference (`printed` in `manifest.json`).
///
/// Empty when `../shared/corpora` is absent, so the tests that use it skip instead of failing.
enum PrintedCorpus {
    /// `<package root>/../shared/corpora`, found from this file's path.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // …/Tests/GraphQLLanguageTests/Printer
        .deletingLastPathComponent()  // …/Tests/GraphQLLanguageTests
        .deletingLastPathComponent()  // …/Tests
        .deletingLastPathComponent()  // the package root
        .deletingLastPathComponent()  // its parent
        .appendingPathComponent("shared/corpora")

    /// One document or SDL schema with its printed reference.
    struct Entry: Decodable, Hashable, Sendable, CustomTestStringConvertible {
        var path: String
        var printed: String
        var isSchema: Bool
        var testDescription: String { path }
    }

    private struct RawEntry: Decodable {
        var path: String?
        var printed: String?
    }

    private struct Manifest: Decodable {
        var documents: [RawEntry]
        var schemas: [RawEntry]
    }

    /// Every entry with a `printed` file, documents first, then schemas.
    static let entries: [Entry] = {
        let manifestURL = root.appendingPathComponent("manifest.json")
        guard let data = try? Data(contentsOf: manifestURL),
            let manifest = try? JSONDecoder().decode(Manifest.self, from: data)
        else { return [] }
        func entries(_ raw: [RawEntry], schema: Bool) -> [Entry] {
            raw.compactMap { entry in
                guard let path = entry.path, let printed = entry.printed else { return nil }
                return Entry(path: path, printed: printed, isSchema: schema)
            }
        }
        return entries(manifest.documents, schema: false) + entries(manifest.schemas, schema: true)
    }()

    /// The bytes of a corpus file given by its manifest path.
    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(path)))
    }
}
