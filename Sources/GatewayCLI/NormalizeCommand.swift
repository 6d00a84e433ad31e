import GraphQLLanguage

/// `gateway normalize FILE [--operation NAME]`: prints the normalized text of one operation, the
/// text the response cache keys on.
public struct NormalizeCommand: Command {
    /// Creates the command.
    public init() {}

    /// The verb.
    public var name: String { "normalize" }
    /// One line for `gateway --help`.
    public var summary: String { "Print the normalized text of one operation (what the cache keys on)" }
    /// The text of `gateway help VERB`: every flag and exit status.
    public var help: String {
        """
        Usage: gateway normalize FILE [--operation NAME]

        Prints the normalized text of one operation of a GraphQL file: the operation followed by the
        fragments it uses (directly or through other fragments) sorted by name, and nothing else;
        compact, without comments, commas or insignificant white space; arguments, variable
        definitions and input object fields sorted by name; selections and directives in written
        order; every string as a quoted string. Documents that differ only in layout, comments,
        argument order or unused fragments print the same text.

        Options:
          --operation NAME  The operation to normalize. Required when the file has several.

        Exit status:
          0  success
          1  syntax error, the operation is missing or ambiguous, or a used fragment is undefined
          2  usage error, or the file cannot be read
        """
    }

    /// Runs the verb.
    /// - Returns: The exit status described in ``help``.
    public func run(_ arguments: inout Arguments, output: Output) async throws -> Int32 {
        let operationName = try arguments.option("operation")
        let paths = try arguments.positionals()
        guard paths.count == 1, let path = paths.first else {
            throw UsageError(paths.isEmpty ? "name the GraphQL file to normalize" : "name exactly one file; got \(paths.count)")
        }
        let bytes: [UInt8]
        do throws(GraphQLFile.ReadError) {
            bytes = try GraphQLFile.read(path, output: output)
        } catch {
            output.error("gateway normalize: \(error)")
            return 2
        }
        let document: Document
        do throws(GraphQLSyntaxError) {
            document = try GraphQLFile.parse(bytes, path: path, schema: false).document
        } catch {
            output.error(error.description)
            return 1
        }
        do throws(OperationSelectionError) {
            output.print(try Normalizer.normalize(document, operationName: operationName).text)
            return 0
        } catch {
            var message = "gateway normalize: \(path): \(error)"
            switch error {
            case .operationNameRequired, .unknownOperation: message += "\nChoose one with --operation NAME."
            default: break
            }
            output.error(message)
            return 1
        }
    }
}
