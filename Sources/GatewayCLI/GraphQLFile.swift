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

    /// The bytes of the file at `path` (relative paths resolve against the output's directory).
    static func read(_ path: String, output: Output) throws(ReadError) -> [UInt8] {
        let filePath = output.url(forPath: path).path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: filePath, isDirectory: &isDirectory) else {
            throw ReadError(path: path, reason: "no such file")
        }
        if isDirectory.boolValue { throw ReadError(path: path, reason: "it is a directory; name the .graphql files in it") }
        guard let data = FileManager.default.contents(atPath: filePath) else {
            throw ReadError(path: path, reason: "permission denied or unreadable")
        }
        return [UInt8](data)
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
    /// With `schema`, or for a `.graphqls` file, the ``Limits/schemas`` profile is used. Otherwise
    /// the ``Limits/operations`` profile is tried first; when the text exceeds one of its limits it
    /// is parsed again with the schema profile, and that result is kept if the document holds
    /// type-system definitions (a large SDL file) or fails with a syntax error of its own. An
    /// executable document over the operation limits keeps its limit error.
    /// - Returns: The document and the limits that parsed it.
    static func parse(
        _ bytes: [UInt8], path: String, schema: Bool
    ) throws(GraphQLSyntaxError) -> (document: Document, limits: Limits) {
        let source = Source(bytes: bytes, name: path)
        if schema || path.hasSuffix(".graphqls") {
            return (try Parser.parse(source, limits: .schemas), .schemas)
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
            document = try Parser.parse(source, limits: .schemas)
        } catch {
            throw error.limit == nil ? error : limitError
        }
        guard document.definitions.contains(where: { !$0.isExecutable }) else { throw limitError }
        return (document, .schemas)
    }
}
