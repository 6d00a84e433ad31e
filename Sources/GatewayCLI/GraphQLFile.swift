import Foundation
import GraphQLLanguage

/// Reading and parsing the GraphQL files named on a command line, shared by `parse`, `format`,
/// `normalize` and the benchmarks.
enum GraphQLFile {
    /// A file that could not be read; exit status 2.
    struct ReadError: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "cannot read '\(path)': \(reason)" }
    }

    /// The bytes of the file at `path` (relative paths resolve against the output's directory),
    /// read no further than one byte past `limit` (the schema profile's 64 MiB by default): a
    /// larger file is then refused by the parser without being read whole.
    static func read(
        _ path: String, output: Output, limit: Int = Limits.schemas.maxBytes
    ) throws(ReadError) -> [UInt8] {
        let filePath = output.url(forPath: path).path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: filePath, isDirectory: &isDirectory) else {
            throw ReadError(path: path, reason: "no such file")
        }
        if isDirectory.boolValue { throw ReadError(path: path, reason: "it is a directory; name the .graphql files in it") }
        do throws(BoundedFile.Failure) {
            return try BoundedFile.contents(of: filePath, limit: limit)
        } catch {
            throw ReadError(path: path, reason: error.reason == "permission denied" ? "permission denied or unreadable"
                                : error.reason)
        }
    }

    /// Writes `bytes` to the file at `path`, replacing it atomically.
    static func write(_ bytes: [UInt8], to path: String, output: Output) throws(ReadError) {
        do {
            try Data(bytes).write(to: output.url(forPath: path), options: .atomic)
        } catch {
            throw ReadError(path: path, reason: "could not write it back (\(error.localizedDescription))")
        }
    }

    /// Parses a file's bytes with the right limits profile.
    ///
    /// With `schema` (the `--schema` flag: asked for by name), the ``Limits/schemas`` profile is
    /// used for everything. For a `.graphqls` file, it is used for the type-system definitions.
    /// Otherwise the ``Limits/operations`` profile is tried first; when the text exceeds one of its
    /// limits it is parsed again with the schema profile, and that result is kept if the document
    /// holds type-system definitions (a large SDL file). Without `schema`, the operations and
    /// fragments of the file are held to the operations profile (see ``Parser/parse(_:limits:executableLimits:)``),
    /// so a type definition in a file lifts no bound on its operations; an oversized operation is
    /// refused as soon as it passes a bound. An executable document over the operation limits
    /// keeps the error of its first parse.
    /// - Returns: The document and the limits that parsed it.
    static func parse(
        _ bytes: [UInt8], path: String, schema: Bool
    ) throws(GraphQLSyntaxError) -> (document: Document, limits: Limits) {
        let source = Source(bytes: bytes, name: path)
        if schema { return (try Parser.parse(source, limits: .schemas), .schemas) }
        if path.hasSuffix(".graphqls") {
            return (try Parser.parse(source, limits: .schemas, executableLimits: .operations), .schemas)
        }
        let limitError: GraphQLSyntaxError
        do throws(GraphQLSyntaxError) {
            return (try Parser.parse(source, limits: .operations), .operations)
        } catch {
            guard error.limit != nil else { throw error }
            limitError = error
        }
        let document: Document
        do throws(GraphQLSyntaxError) {
            document = try Parser.parse(source, limits: .schemas, executableLimits: .operations)
        } catch {
            // Past the schema profile's size nothing can parse it: the first error says why.
            throw error.limit == .bytes && bytes.count > Limits.schemas.maxBytes ? limitError : error
        }
        guard document.definitions.contains(where: { !$0.isExecutable }) else { throw limitError }
        return (document, .schemas)
    }
}
