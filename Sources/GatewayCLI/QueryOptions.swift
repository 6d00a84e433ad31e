import Foundation
import Gateway
import GraphQLLanguage

/// The options of `gateway query`, checked: the operation (with the fragments of its folder),
/// its variables, and how to send it.
struct QueryOptions {
    /// The endpoint as given (for messages, query items redacted).
    var display: String
    /// The endpoint's origin: the provider's base URL.
    var baseURL: URL
    /// The endpoint's path, relative to `baseURL`.
    var path: String
    var operation: GraphQLOperation
    var variables: GraphQLVariables
    var headers: HTTPHeaders
    var persisted: Bool
    var usesGET: Bool
    var timeout: Duration?
    /// The whole call's deadline: `--deadline`, or the default `CallDeadline.resolve` gives.
    var deadline: Duration
    var priority: RequestPriority
    var retries: Int
    var verbose: Bool
    /// `--cache PATH` and `--cache-policy`.
    var cache: CacheFlags

    init(parsing arguments: inout Arguments, output: Output) throws(UsageError) {
        let endpoint = try arguments.option("endpoint")
        let operationName = try arguments.option("operation")
        let variablesText = try arguments.option("variables")
        let variableItems = try arguments.options("var")
        let headerLines = try arguments.options("header", short: "-H")
        let bearer = try arguments.option("bearer")
        persisted = arguments.flag("persisted")
        usesGET = arguments.flag("get")
        verbose = arguments.flag("verbose", short: "-v")
        let priorityNames = RequestPriority.allCases.map(\.description)
        priority = try arguments.choice("priority", priorityNames).flatMap(RequestPriority.init(name:)) ?? .medium
        retries = try RequestOptions.retries(arguments.option("retries"))
        timeout = try arguments.number("timeout").map { Duration.milliseconds(Int64(($0 * 1000).rounded())) }
        deadline = try CallDeadline.resolve(arguments.number("deadline"), timeout: timeout, retries: retries)
        cache = try CacheFlags(parsing: &arguments)
        let positionals = try arguments.positionals()
        guard positionals.count == 1 else {
            throw UsageError("expected one FILE holding the operation, got \(positionals.count) argument(s)")
        }
        guard let endpoint else {
            throw UsageError("--endpoint URL is required (for example http://127.0.0.1:4000/graphql)")
        }
        guard let url = URL(string: endpoint), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false), components.query == nil
        else {
            throw UsageError("--endpoint '\(endpoint)' is not an absolute http or https URL without a query "
                + "(for example http://127.0.0.1:4000/graphql)")
        }
        display = Redaction.redactedURL(url)
        path = String(components.percentEncodedPath.drop { $0 == "/" })
        components.percentEncodedPath = "/"
        components.fragment = nil
        guard let base = components.url else { throw UsageError("--endpoint '\(endpoint)' is not a usable URL") }
        baseURL = base

        headers = HTTPHeaders()
        for line in headerLines {
            guard let colon = line.firstIndex(of: ":") else {
                throw UsageError("--header '\(line)' must look like 'Name: value'")
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw UsageError("--header '\(line)' has no name before the colon") }
            headers.add(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        if let bearer { headers["Authorization"] = "Bearer \(bearer)" }

        variables = try Self.variables(text: variablesText, items: variableItems)
        operation = try Self.operation(file: positionals[0], name: operationName, output: output)
    }

    /// What the operation is sent with: the header fields and the priority given; no
    /// credential is required, as the command has no token store (`--bearer` is a header field).
    var requestOptions: GraphQLRequestOptions {
        var requestOptions = GraphQLRequestOptions()
        requestOptions.headers = headers
        requestOptions.priority = priority
        requestOptions.requiresAuthentication = false
        return requestOptions
    }

    /// `--variables` as the base, each `--var name=value` over it (JSON when the value is valid
    /// JSON, else the text as a string).
    static func variables(text: String?, items: [String]) throws(UsageError) -> GraphQLVariables {
        var variables = GraphQLVariables()
        if let text {
            do {
                variables = try GraphQLVariables(parsing: text)
            } catch {
                throw UsageError("--variables: \((error as? GatewayError)?.message ?? "\(error)")")
            }
        }
        for item in items {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw UsageError("--var '\(item)' must look like name=value")
            }
            var name = String(item[..<equals])
            if name.hasPrefix("$") { name.removeFirst() }
            let text = String(item[item.index(after: equals)...])
            variables[name] = (try? JSONValue(parsing: text)) ?? .string(text)
        }
        return variables
    }

    /// The operation named `name` (or the only one) in `file`, with the fragments of every
    /// GraphQL file in the same folder.
    static func operation(file: String, name: String?, output: Output) throws(UsageError) -> GraphQLOperation {
        let bytes: [UInt8]
        do {
            bytes = try GraphQLFile.read(file, output: output, limit: Limits.operations.maxBytes)
        } catch {
            throw UsageError(error.description)
        }
        let fileURL = output.url(forPath: file).standardizedFileURL
        let document: Document
        do {
            document = try Parser.parse(Source(bytes: bytes, name: file), limits: .operations)
        } catch {
            throw UsageError("the operation file does not parse:\n\(error.diagnostic.rendered())")
        }
        let names = document.definitions.compactMap { definition -> String? in
            if case .operation(let operation) = definition { return operation.name?.value ?? "(anonymous)" }
            return nil
        }
        if let name, !names.contains(name) {
            let near = NameSuggestions.near(name, in: names)
            let hint = near.isEmpty ? "" : "; did you mean " + near.map { "\"\($0)\"" }.joined(separator: ", ") + "?"
            throw UsageError("\(file) has no operation named \"\(name)\"\(hint) (it has "
                + (names.isEmpty ? "none" : names.joined(separator: ", ")) + ")")
        }
        var definitions = document.definitions
        var defined = FolderFragments.names(in: document)
        let folder = FolderFragments(siblingsOf: fileURL, excluding: &defined)
        let unreadable = folder.unreadable
        definitions += folder.fragments.map { .fragment($0.definition) }
        do {
            return try GraphQLOperation(
                document: Document(definitions: definitions, range: document.range, source: document.source),
                operationName: name)
        } catch {
            var message = (error as? GatewayError)?.message ?? "\(error)"
            if !unreadable.isEmpty {
                message += " (these files of the folder do not parse: \(unreadable.joined(separator: ", ")))"
            }
            if let fix = (error as? GatewayError)?.fix { message += "; \(fix)" }
            throw UsageError(message)
        }
    }
}
