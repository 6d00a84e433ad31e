import Foundation
import GraphQLLanguage

/// `gateway check [--schema PATH]... [PATH...]`: validates query files against a schema and
/// reports every problem with its file, line and column.
public struct CheckCommand: Command {
    /// Creates the command.
    public init() {}

    /// `check`.
    public var name: String { "check" }
    /// One line for `gateway --help`.
    public var summary: String { "Validate query files against a schema, with file, line and column" }
    /// The text of `gateway help check`.
    public var help: String {
        """
        Usage: gateway check [--schema PATH]... [PATH...] [--format text|json] [--lenient]

        Builds one schema from the --schema paths (default: Schemas) and validates the query files
        in each PATH (default: Queries) against it, with every rule of the GraphQL specification's
        Validation section. A PATH is a .graphql file or a directory, searched recursively; the
        files of one directory form one compilation unit, so a fragment defined in one file may be
        spread in another, and files holding only fragments are fine.

        A schema PATH is an SDL file (.graphql, .graphqls), an introspection result (.json, in the
        {"data": {"__schema": ...}} or {"__schema": ...} form) or a directory of SDL files, which
        together make one schema.

        Output:
          text (default)  each problem as
                            path:line:column: error: message [RuleName]
                          with the source line and a caret, then a summary:
                            N files, M operations, K fragments: E errors
          --format json   a JSON array of the errors:
                            [{"file": "...", "line": 3, "column": 7, "message": "...", "rule": "..."}]
                          ("rule" is null for syntax errors and for schema problems no rule names).
                          Warnings and the summary go to standard error.

        Options:
          --schema PATH    A schema file or directory; repeat to combine several (default Schemas).
          --format FORMAT  text or json (default text).
          --lenient        Build a schema graphql-js would reject (a field defined twice, an unknown
                           directive) and report those problems as warnings.

        Exit status:
          0  every file is valid
          1  there are errors (in the queries, or a schema that does not build)
          2  usage error, or a path that cannot be read
        """
    }

    /// Checks the files and prints the problems.
    /// - Returns: 0 when every file is valid, 1 when there are errors, 2 for usage or I/O problems.
    public func run(_ arguments: inout Arguments, output: Output) async throws -> Int32 {
        var schemaPaths = try arguments.options("schema")
        let format = try arguments.choice("format", ["text", "json"]) ?? "text"
        let lenient = arguments.flag("lenient")
        var queryPaths = try arguments.positionals()
        if schemaPaths.isEmpty { schemaPaths = ["Schemas"] }
        if queryPaths.isEmpty { queryPaths = ["Queries"] }

        let schemaFiles: [Source]
        let queryFiles: [Source]
        do throws(CheckFiles.ReadError) {
            schemaFiles = try CheckFiles.read(schemaPaths, extensions: CheckFiles.schemaExtensions,
                                              limit: Limits.schemas.maxBytes, output: output)
            queryFiles = try CheckFiles.read(queryPaths, extensions: CheckFiles.queryExtensions,
                                             limit: Limits.operations.maxBytes, output: output)
        } catch {
            output.error("gateway check: \(error)")
            return 2
        }

        let built = Schema.build(files: schemaFiles, options: lenient ? .lenient : .strict)
        var report = Report(json: format == "json", output: output)
        report.add(built.diagnostics)
        guard let schema = built.schema else {
            let hint = lenient ? "" : " (--lenient builds a schema despite problems graphql-js rejects, as warnings)"
            report.finish(summary: "The schema does not build\(hint).")
            return 1
        }
        let check = QueryFileCheck(sources: queryFiles, schema: schema)
        report.add(check.diagnostics)
        report.finish(summary: check.summary)
        return check.errorCount > 0 ? 1 : 0
    }

    /// Collects diagnostics and prints them as text or JSON.
    private struct Report {
        var json: Bool
        var output: Output
        var errors: [JSONValue] = []

        mutating func add(_ diagnostics: [Diagnostic]) {
            for diagnostic in diagnostics {
                if diagnostic.severity != .error {
                    output.error(diagnostic.rendered())
                } else if json {
                    errors.append(Self.json(diagnostic))
                } else {
                    output.print(diagnostic.rendered())
                }
            }
        }

        func finish(summary: String) {
            if json {
                output.print(JSONValue.array(errors).serialized(.pretty))
                output.error(summary)
            } else {
                output.print(summary)
            }
        }

        static func json(_ diagnostic: Diagnostic) -> JSONValue {
            let location = diagnostic.locations.first
            return .object([
                "file": location?.source.map { .string($0.name) } ?? .null,
                "line": location.map { .number(JSONNumber($0.line)) } ?? .null,
                "column": location.map { .number(JSONNumber($0.column)) } ?? .null,
                "message": .string(diagnostic.message),
                "rule": diagnostic.rule.map { .string($0) } ?? .null,
            ])
        }
    }
}

/// Reading the files `gateway check` is pointed at.
enum CheckFiles {
    static let schemaExtensions = ["graphql", "graphqls", "json"]
    static let queryExtensions = ["graphql", "gql"]

    /// A path that does not exist, cannot be read, or holds no suitable files; exit status 2.
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// The files at `paths`: a file as given, a directory searched recursively for files with one
    /// of `extensions` (in path order). Each source is named by the path as typed plus the file's
    /// path inside the directory. A file is read no further than one byte past `limit`, the size
    /// the parser accepts, so the parser refuses a larger one without it being read whole; an
    /// introspection result (`.json`) over `limit` is refused here.
    static func read(
        _ paths: [String], extensions: [String], limit: Int, output: Output
    ) throws(ReadError) -> [Source] {
        var sources: [Source] = []
        for path in paths {
            let url = output.url(forPath: path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw ReadError(description: "'\(path)' does not exist; name a file or a directory.")
            }
            guard isDirectory.boolValue else {
                sources.append(Source(bytes: try contents(of: url, shownAs: path, limit: limit), name: path))
                continue
            }
            let found = files(in: url, extensions: extensions)
            guard !found.isEmpty else {
                let kinds = extensions.map { ".\($0)" }.joined(separator: ", ")
                throw ReadError(description: "'\(path)' holds no \(kinds) files.")
            }
            let prefix = path.hasSuffix("/") ? path : path + "/"
            for relative in found {
                let name = prefix + relative
                let bytes = try contents(of: url.appendingPathComponent(relative), shownAs: name, limit: limit)
                sources.append(Source(bytes: bytes, name: name))
            }
        }
        return sources
    }

    /// The paths, relative to `directory`, of the files below it with one of `extensions`, sorted.
    static func files(in directory: URL, extensions: [String]) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let fileExtension = (relative as NSString).pathExtension.lowercased()
            guard extensions.contains(fileExtension) else { continue }
            var isDirectory: ObjCBool = false
            let full = directory.appendingPathComponent(relative).path
            if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                found.append(relative)
            }
        }
        return found.sorted()
    }

    private static func contents(of url: URL, shownAs name: String, limit: Int) throws(ReadError) -> [UInt8] {
        let bytes: [UInt8]
        do throws(BoundedFile.Failure) {
            bytes = try BoundedFile.contents(of: url.path, limit: limit)
        } catch {
            throw ReadError(description: "cannot read '\(name)': \(error.reason).")
        }
        if bytes.count > limit, url.pathExtension.lowercased() == "json" {
            throw ReadError(description: "'\(name)' is larger than \(limit) bytes, more than an introspection result "
                + "is read; point --schema at a smaller result or at SDL files.")
        }
        return bytes
    }
}
