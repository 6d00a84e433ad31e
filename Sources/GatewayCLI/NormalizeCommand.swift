import Foundation
import Gateway
import GraphQLLanguage

/// `gateway normalize FILE [--operation NAME] [--variables JSON]`: prints the normalized text of
/// one operation, the text the response cache keys on; with variables, also the cache key and
/// every component that went into it.
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
        Usage: gateway normalize FILE [--operation NAME] [--variables '<json>']

        Prints the normalized text of one operation of a GraphQL file: the operation followed by the
        fragments it uses (directly or through other fragments) sorted by name, and nothing else;
        fragments may be defined in FILE or in any other .graphql or .gql file of its folder, as for
        'gateway check' and 'gateway query';
        compact, without comments, commas or insignificant white space; arguments, variable
        definitions and input object fields sorted by name; selections and directives in written
        order; every string as a quoted string. Documents that differ only in layout, comments,
        argument order or unused fragments print the same text.

        Options:
          --operation NAME       The operation to normalize. Required when the file has several.
          --variables '<json>'   Also print the response cache key of the operation with these
                                 variables (a JSON object; declared defaults fill absent ones),
                                 and every component that went into it.
          --endpoint URL         The GraphQL endpoint the key is for (with --variables);
                                 default http://localhost/graphql.
          --partition SUBJECT    The credential subject the key is for (with --variables);
                                 anonymous by default.

        Exit status:
          0  success
          1  syntax error, the operation is missing or ambiguous, a used fragment is undefined, or
             the variables do not fit the operation
          2  usage error, or the file cannot be read
        """
    }

    /// Runs the verb.
    /// - Returns: The exit status described in ``help``.
    public func run(_ arguments: inout Arguments, output: Output) async throws -> Int32 {
        let operationName = try arguments.option("operation")
        let variablesText = try arguments.option("variables")
        let endpointText = try arguments.option("endpoint")
        let subject = try arguments.option("partition")
        let paths = try arguments.positionals()
        guard paths.count == 1, let path = paths.first else {
            throw UsageError(paths.isEmpty ? "name the GraphQL file to normalize" : "name exactly one file; got \(paths.count)")
        }
        if variablesText == nil, endpointText != nil || subject != nil {
            throw UsageError("--endpoint and --partition only matter with --variables (the cache key)")
        }
        let variables = try variablesText.map { text throws(UsageError) in
            do {
                return try GraphQLVariables(parsing: text)
            } catch {
                throw UsageError("--variables: \((error as? GatewayError)?.message ?? "\(error)")")
            }
        }
        let endpoint = try Self.endpoint(endpointText)
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
        // Fragments may come from the other files of the folder, as for `check` and `query`.
        var defined = FolderFragments.names(in: document)
        let folder = FolderFragments(siblingsOf: output.url(forPath: path), excluding: &defined)
        let unit = Document(definitions: document.definitions + folder.fragments.map { .fragment($0.definition) },
                            range: document.range, source: document.source)
        do throws(OperationSelectionError) {
            output.print(try Normalizer.normalize(unit, operationName: operationName).text)
            guard let variables else { return 0 }
            return Self.printKey(unit, operationName: operationName, variables: variables, endpoint: endpoint,
                                 partition: CachePartition(subject: subject), output: output)
        } catch {
            let place = NormalizeErrorPlace.place(of: error, in: document, path: path, folder: folder)
            var message = "gateway normalize: \(place): \(error)"
            switch error {
            case .operationNameRequired, .unknownOperation: message += "\nChoose one with --operation NAME."
            case .unknownFragment where !folder.unreadable.isEmpty:
                message += "\nThese files of the folder do not parse: \(folder.unreadable.joined(separator: ", "))."
            default: break
            }
            output.error(message)
            return 1
        }
    }

    /// `--endpoint`, checked; the default endpoint without it.
    private static func endpoint(_ text: String?) throws(UsageError) -> URL {
        let text = text ?? "http://localhost/graphql"
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false
        else {
            throw UsageError("--endpoint '\(text)' is not an absolute http or https URL (for example "
                + "http://127.0.0.1:4000/graphql)")
        }
        return url
    }

    /// Prints the cache key of the operation with `variables`, and its components.
    private static func printKey(_ document: Document, operationName: String?, variables: GraphQLVariables,
                                 endpoint: URL, partition: CachePartition, output: Output) -> Int32 {
        let key: CacheKey
        do {
            let operation = try GraphQLOperation(document: document, operationName: operationName)
            let request = try GraphQLRequest<JSONValue>(operation: operation, variables: variables)
            key = request.payload.cacheKey(endpoint: endpoint, partition: partition)
        } catch {
            let failure = error as? GatewayError
            var message = failure?.message ?? "\(error)"
            if let problems = failure?.underlying as? GraphQLVariableErrors {
                // The library's message says nothing was sent; here nothing is ever sent.
                let count = problems.errors.count
                message = "\(count) variable problem\(count == 1 ? "" : "s"): "
                    + problems.errors.map { "\n- " + $0.message }.joined()
            }
            output.error("gateway normalize: \(message)" + (failure?.fix.map { "\nFix: \($0)" } ?? ""))
            return 1
        }
        output.print("")
        output.print("cache key: \(key.hex)")
        for component in key.explain() {
            let value = component.name == "operation" ? "(the normalized text above)" : component.value ?? "(absent)"
            output.print("  \(component.name): \(value)")
        }
        return 0
    }
}
