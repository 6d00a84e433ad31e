import Foundation
import GatewayCodegen
import GraphQLLanguage

/// The package's own schema and query files, and generation from them.
enum CodegenFixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // …/Tests/GatewayCodegenTests
        .deletingLastPathComponent()  // …/Tests
        .deletingLastPathComponent()  // the package root

    /// `Schemas/music.graphql`.
    static func musicSchema() throws -> Schema {
        let source = try self.source(packageRoot.appendingPathComponent("Schemas/music.graphql"), name: "music.graphql")
        return try requireSchema(Schema.build(files: [source]))
    }

    /// The files of `Queries/`, named `Queries/<file>`.
    static func queries() throws -> [Source] {
        let folder = packageRoot.appendingPathComponent("Queries")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".graphql") }
        return try names.sorted().map { try source(folder.appendingPathComponent($0), name: "Queries/" + $0) }
    }

    static func source(_ url: URL, name: String) throws -> Source {
        Source(bytes: [UInt8](try Data(contentsOf: url)), name: name)
    }

    /// A schema built from SDL text, or a failure naming the problems.
    static func schema(_ sdl: String) throws -> Schema {
        try requireSchema(Schema.build(files: [Source(sdl, name: "schema.graphql")]))
    }

    /// The package's `gateway-codegen.json`, which `gateway generate` run at the package root reads.
    static func musicConfiguration() throws -> CodegenConfiguration {
        let url = packageRoot.appendingPathComponent("gateway-codegen.json")
        return try CodegenConfiguration(json: [UInt8](try Data(contentsOf: url)), name: "gateway-codegen.json")
    }

    /// The files generated for `Queries/` against the music schema, with `configuration` or else
    /// the package's `gateway-codegen.json`.
    static func musicFiles(_ configuration: CodegenConfiguration? = nil) throws -> [GeneratedFile] {
        let configuration = try configuration ?? musicConfiguration()
        let result = CodeGenerator(schema: try musicSchema(), configuration: configuration).generate(try queries())
        guard result.diagnostics.isEmpty else { throw Failure(result.diagnostics.map(\.description).joined()) }
        return result.files
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

/// The schema of a build result, or a failure listing its diagnostics.
func requireSchema(_ result: SchemaBuildResult) throws -> Schema {
    guard let schema = result.schema else {
        throw CodegenFixtures.Failure(result.diagnostics.map(\.description).joined(separator: "\n"))
    }
    return schema
}
