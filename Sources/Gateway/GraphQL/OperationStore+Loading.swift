import Foundation
import GraphQLLanguage

extension OperationStore {
    /// The file extensions of operation files.
    public static let fileExtensions: Set<String> = ["graphql", "gql"]

    /// Loads every `.graphql` and `.gql` file under `directory` (subfolders included).
    ///
    /// ```swift
    /// let operations = try OperationStore(directory: URL(fileURLWithPath: "Queries"))
    /// ```
    /// - Parameters:
    ///   - directory: the folder of operation files.
    ///   - schema: when given, the operations are validated against it as they load.
    /// - Throws: `GatewayError` of kind `.invalidOperation` for a folder that cannot be read or
    ///   holds no operation files, and for every problem in the files, all at once.
    public init(directory: URL, schema: Schema? = nil) throws {
        try self.init(files: Self.operationFiles(in: directory), schema: schema)
    }

    /// Loads the operation files under `directory` and validates them against the schema at
    /// `schemaURL` (an SDL file, a folder of SDL files, or an introspection `.json` file).
    ///
    /// - Throws: `GatewayError` of kind `.invalidOperation` for a schema that does not build (with
    ///   its diagnostics) and for every problem in the operation files.
    public init(directory: URL, schemaAt schemaURL: URL) throws {
        try self.init(directory: directory, schema: Self.schema(at: schemaURL))
    }

    /// Loads the given operation files.
    ///
    /// - Throws: `GatewayError` of kind `.invalidOperation` for a file that cannot be read and for
    ///   every problem in the files, all at once.
    public init(files: [URL], schema: Schema? = nil) throws {
        try self.init(sources: files.map(Self.read), schema: schema)
    }

    /// Loads the `.graphql` and `.gql` resources of a bundle (SwiftPM flattens `.process`
    /// resources; use `subdirectory` with `.copy`).
    ///
    /// - Throws: `GatewayError` of kind `.invalidOperation` when the bundle has no operation files,
    ///   and for every problem in them.
    public init(bundle: Bundle, subdirectory: String? = nil, schema: Schema? = nil) throws {
        var files: [URL] = []
        for fileExtension in Self.fileExtensions.sorted() {
            let found = bundle.urls(forResourcesWithExtension: fileExtension, subdirectory: subdirectory) ?? []
            files += found.map { $0 as URL }
        }
        guard !files.isEmpty else {
            throw GatewayError(
                .invalidOperation, "the bundle \(bundle.bundlePath) has no .graphql or .gql resources"
                    + (subdirectory.map { " in \($0)" } ?? ""),
                fix: "list the operation files as resources of the target in Package.swift")
        }
        try self.init(files: files.sorted { $0.path < $1.path }, schema: schema)
    }

    /// Builds a schema from an SDL file, a folder of SDL files (`.graphql`, `.graphqls`), or one
    /// introspection result (`.json`).
    ///
    /// - Throws: `GatewayError` of kind `.invalidOperation` for a path that cannot be read or a
    ///   schema that does not build, with every diagnostic.
    public static func schema(at url: URL) throws -> Schema {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw GatewayError(.invalidOperation, "the schema '\(url.path)' does not exist",
                               fix: "point at an SDL file, a folder of them, or an introspection .json file")
        }
        let files = isDirectory.boolValue
            ? try graphQLFiles(in: url, extensions: ["graphql", "graphqls", "json"]) : [url]
        let built = Schema.build(files: try files.map(read))
        guard let schema = built.schema, built.errors.isEmpty else {
            throw GatewayError.invalidOperation(built.errors.isEmpty ? built.diagnostics : built.errors,
                                                what: "the schema at \(url.path)")
        }
        return schema
    }

    /// The operation files under `directory`, sorted by path.
    static func operationFiles(in directory: URL) throws -> [URL] {
        try graphQLFiles(in: directory, extensions: fileExtensions)
    }

    private static func graphQLFiles(in directory: URL, extensions: Set<String>) throws -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw GatewayError(.invalidOperation, "'\(directory.path)' is not a folder",
                               fix: "point at the folder that holds the .graphql files")
        }
        var files: [URL] = []
        let enumerator = FileManager.default.enumerator(atPath: directory.path)
        while let relative = enumerator?.nextObject() as? String {
            guard extensions.contains((relative as NSString).pathExtension.lowercased()) else { continue }
            files.append(directory.appendingPathComponent(relative))
        }
        guard !files.isEmpty else {
            throw GatewayError(
                .invalidOperation, "'\(directory.path)' holds no \(extensions.sorted().joined(separator: ", ")) files",
                fix: "point at the folder that holds the .graphql files")
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The file's bytes as a source named by its path, read no further than one byte past
    /// ``Limits/operations``' size: the parser refuses a larger file with the same error, without
    /// it being read whole.
    static func read(_ url: URL) throws -> Source {
        guard let source = Source.reading(url, upTo: Limits.operations.maxBytes) else {
            throw GatewayError(.invalidOperation, "cannot read '\(url.path)'",
                               fix: "check that the file exists and is readable")
        }
        return source
    }
}
