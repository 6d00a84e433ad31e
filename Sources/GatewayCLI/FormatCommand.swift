import Foundation
import GraphQLLanguage

/// `gateway format FILE...`: prints GraphQL files in the canonical form of graphql-js's `print`,
/// checks that they are in it, or rewrites them into it.
public struct FormatCommand: Command {
    /// Creates the command.
    public init() {}

    /// The verb.
    public var name: String { "format" }
    /// One line for `gateway --help`.
    public var summary: String { "Print GraphQL files in canonical form (--check, --write)" }
    /// The text of `gateway help VERB`: every flag and exit status.
    public var help: String {
        """
        Usage: gateway format FILE... [--check | --write] [--schema]

        Prints each GraphQL file (operations or SDL) in the canonical pretty form of graphql-js's
        print(): two-space indentation, one blank line between definitions, commas dropped. The
        comment lines at the top of a file, before its first definition, are kept above it (one
        blank line after them); comments anywhere else are dropped from the printed form, with a
        note on standard error, and --write refuses to rewrite such a file. The output of several
        files is written one after another.

        Options:
          --check   Print nothing but the path of each file that is not already in canonical form,
                    one per line, on standard output; exit 1 if there is any.
          --write   Rewrite each file that is not in canonical form, in place; print nothing. A
                    file with a comment after its first definition is not rewritten: its
                    path:line:column is reported on standard error and the exit status is 1.
          --schema  Parse with the schema limits profile (see 'gateway help parse').

        Syntax errors are reported on standard error as path:line:column: error: message with the
        source line and a caret; such files are neither printed nor rewritten.

        Exit status:
          0  success (with --check: every file is canonical)
          1  a file has a syntax error, with --check a file is not in canonical form, or with
             --write a file has comments the canonical form would drop
          2  usage error, or a file cannot be read or written
        """
    }

    /// Runs the verb.
    /// - Returns: The exit status described in ``help``.
    public func run(_ arguments: inout Arguments, output: Output) async throws -> Int32 {
        let check = arguments.flag("check")
        let write = arguments.flag("write")
        let schema = arguments.flag("schema")
        let paths = try arguments.positionals()
        guard !(check && write) else { throw UsageError("--check and --write cannot be used together") }
        guard !paths.isEmpty else { throw UsageError("name at least one GraphQL file to format") }
        var failed = false
        var unreadable = false
        for path in paths {
            do throws(GraphQLFile.ReadError) {
                let bytes = try GraphQLFile.read(path, output: output)
                let document: Document
                do throws(GraphQLSyntaxError) {
                    document = try GraphQLFile.parse(bytes, path: path, schema: schema).document
                } catch {
                    output.error(error.description)
                    failed = true
                    continue
                }
                let comments = FormatComments(bytes)
                var canonical = comments.header
                if !canonical.isEmpty { canonical.append(0x0A) }
                canonical += Printer.printedBytes(document)
                canonical.append(0x0A)
                if check {
                    if canonical != bytes {
                        output.print(path)
                        failed = true
                    }
                } else if write {
                    guard canonical != bytes else { continue }
                    if let offset = comments.firstDroppedComment {
                        output.error(Self.droppedComment(path, bytes: bytes, offset: offset, rewriting: true))
                        failed = true
                        continue
                    }
                    try GraphQLFile.write(canonical, to: path, output: output)
                } else {
                    if let offset = comments.firstDroppedComment {
                        output.error(Self.droppedComment(path, bytes: bytes, offset: offset, rewriting: false))
                    }
                    output.writeOut(Data(canonical))
                }
            } catch {
                output.error("gateway format: \(error)")
                unreadable = true
            }
        }
        return unreadable ? 2 : failed ? 1 : 0
    }

    /// Where a comment the canonical form drops stands, and what was done about it.
    private static func droppedComment(_ path: String, bytes: [UInt8], offset: Int, rewriting: Bool) -> String {
        let location = Source(bytes: bytes, name: path).location(at: offset)
        let place = "\(path):\(location.line):\(location.column)"
        if rewriting {
            return "\(place): error: the canonical form drops this comment, so the file was not rewritten. "
                + "Move the comment to the top of the file (comments there are kept) or remove it."
        }
        return "\(place): note: the canonical form printed drops this comment (comments at the top of the file "
            + "are kept)."
    }
}
