import Foundation
import PackagePlugin

/// Generates Swift types for a target's GraphQL operations on every `swift build`: list it in the
/// target's `plugins:` and put the `.graphql` operation files and the schema in the target.
///
/// What it reads:
/// - the schema: the target's `schema.graphqls`, `*.graphqls` or `schema.json` files, or the
///   paths that `gateway-codegen.json` in the target's folder names under `"schema"`;
/// - the operations: the target's other `.graphql` files, and the `.graphql` files of the folders
///   that `gateway-codegen.json` names under `"operations"`;
/// - `gateway-codegen.json` itself, for `"scalars"` and `"access"` (as `gateway generate` reads it).
/// Paths in `gateway-codegen.json` are relative to its folder.
///
/// It writes one Swift file into the build folder, compiled with the target; an invalid operation
/// fails the build with its file, line and column.
@main
struct GatewayCodegenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let folder = target.directoryURL
        let files = target.sourceFiles.map(\.url)
        let settings = try Settings(folder: folder)

        var schemas = files.filter(Self.isSchema)
        var operations = files.filter { $0.pathExtension.lowercased() == "graphql" && !Self.isSchema($0) }
        if let named = settings?.schema {
            schemas = try named.flatMap { try Self.files(at: folder.appending(path: $0), extensions: ["graphql", "graphqls", "json"]) }
            let schemaPaths = Set(schemas.map(\.standardizedFileURL.path))
            operations.removeAll { schemaPaths.contains($0.standardizedFileURL.path) }
        }
        for path in settings?.operations ?? [] {
            operations += try Self.files(at: folder.appending(path: path), extensions: ["graphql"]).filter { !Self.isSchema($0) }
        }
        guard !operations.isEmpty else { return [] }

        let output = context.pluginWorkDirectoryURL.appending(path: "\(target.name)+GraphQL.swift")
        var arguments = ["--output", output.path]
        for schema in schemas { arguments += ["--schema", schema.path] }
        var inputs = schemas + operations
        if let configuration = settings?.url {
            arguments += ["--config", configuration.path]
            inputs.append(configuration)
        }
        arguments += operations.map(\.path)
        return [.buildCommand(
            displayName: "Generating GraphQL types for \(target.name)",
            executable: try context.tool(named: "gateway-codegen").url,
            arguments: arguments,
            inputFiles: inputs,
            outputFiles: [output]
        )]
    }

    /// A schema file by its name, in any case: `*.graphqls`, `schema.graphql` or `schema.json`.
    static func isSchema(_ url: URL) -> Bool {
        let name = url.lastPathComponent.lowercased()
        return url.pathExtension.lowercased() == "graphqls" || name == "schema.graphql" || name == "schema.json"
    }

    /// The file at `url`, or the files below it with one of `extensions`, sorted by path.
    static func files(at url: URL, extensions: Set<String>) throws -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw PluginError("gateway-codegen.json names '\(url.path)', which does not exist")
        }
        guard isFolder.boolValue else { return [url] }
        guard let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else {
            throw PluginError("gateway-codegen.json names the folder '\(url.path)', which cannot be read")
        }
        return enumerator.compactMap { $0 as? URL }
            .filter { extensions.contains($0.pathExtension.lowercased()) }
            .sorted { $0.path < $1.path }
    }
}

/// The plugin's part of `gateway-codegen.json`: where the schema and extra operations are.
struct Settings: Decodable {
    var schema: [String]?
    var operations: [String]?
    /// The file itself, passed on to the generator for scalars and access.
    var url: URL?

    private enum CodingKeys: String, CodingKey { case schema, operations }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schema = try Self.paths(.schema, in: container)
        operations = try Self.paths(.operations, in: container)
    }

    /// A path or a list of paths.
    private static func paths(_ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>) throws -> [String]? {
        if let one = try? container.decodeIfPresent(String.self, forKey: key) { return [one] }
        return try container.decodeIfPresent([String].self, forKey: key)
    }

    /// Reads `gateway-codegen.json` in `folder`; `nil` when there is none.
    init?(folder: URL) throws {
        let url = folder.appending(path: "gateway-codegen.json")
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        do {
            self = try JSONDecoder().decode(Settings.self, from: data)
        } catch {
            throw PluginError("\(url.path): \(error); write it as {\"schema\": [\"schema.graphqls\"], "
                + "\"operations\": [\"Queries\"]}")
        }
        self.url = url
    }
}

struct PluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
