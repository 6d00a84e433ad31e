import GraphQLLanguage

/// `gateway parse FILE...`: checks that GraphQL files parse, reporting each syntax error with its
/// place, the source line and a caret, or as JSON.
public struct ParseCommand: Command {
    /// Creates the command.
    public init() {}

    /// The verb.
    public var name: String { "parse" }
    /// One line for `gateway --help`.
    public var summary: String { "Check that GraphQL files parse; report syntax errors with line and column" }
    /// The text of `gateway help VERB`: every flag and exit status.
    public var help: String {
        """
        Usage: gateway parse FILE... [--format text|json] [--schema]

        Parses each GraphQL file (operations or SDL) and reports every file that does not parse.

        Output:
          text (default)  each error on standard error as
                            path:line:column: error: message
                          followed by the source line and a caret under the column.
          --format json   a JSON array on standard output, one object per failing file:
                            [{"file": "...", "line": 3, "column": 7, "message": "Syntax Error: ..."}]
                          ([] when every file parses). Lines and columns are 1-based; columns count
                          characters (code points).

        Options:
          --format FORMAT  text or json (default text).
          --schema         Parse with the schema limits profile (64 MiB, depth 256) instead of the
                           operations profile (1 MiB, 15,000 tokens, depth 128). Without it, a file
                           over the operation limits is parsed again with the schema profile when it
                           contains type-system definitions, and .graphqls files always use it; the
                           operations and fragments of such a file are still held to the operations
                           profile. Files larger than 64 MiB are refused without being read whole.

        Exit status:
          0  every file parses
          1  at least one file has a syntax error (or exceeds a limit)
          2  usage error, or a file cannot be read
        """
    }

    /// Runs the verb.
    /// - Returns: The exit status described in ``help``.
    public func run(_ arguments: inout Arguments, output: Output) async throws -> Int32 {
        let format = try arguments.choice("format", ["text", "json"]) ?? "text"
        let schema = arguments.flag("schema")
        let paths = try arguments.positionals()
        guard !paths.isEmpty else { throw UsageError("name at least one GraphQL file to parse") }
        var status: Int32 = 0
        var failures: [JSONValue] = []
        for path in paths {
            let bytes: [UInt8]
            do throws(GraphQLFile.ReadError) {
                bytes = try GraphQLFile.read(path, output: output)
            } catch {
                output.error("gateway parse: \(error)")
                status = 2
                continue
            }
            do throws(GraphQLSyntaxError) {
                _ = try GraphQLFile.parse(bytes, path: path, schema: schema)
            } catch {
                if status == 0 { status = 1 }
                if format == "json" {
                    failures.append(.object([
                        "file": .string(path),
                        "line": .number(JSONNumber(error.location.line)),
                        "column": .number(JSONNumber(error.location.column)),
                        "message": .string(error.message),
                    ]))
                } else {
                    output.error(error.description)
                }
            }
        }
        if format == "json" { output.print(JSONValue.array(failures).serialized(.pretty)) }
        return status
    }
}
