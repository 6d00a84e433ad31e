import Foundation
import Gateway
import GatewaySQLite
import GraphQLLanguage

/// `gateway query FILE --endpoint URL`: one GraphQL operation through the Provider, the response
/// JSON to standard output.
struct QueryCommand: Command {
    let name = "query"
    let summary = "Send one GraphQL operation through the Gateway pipeline and print the response JSON"
    let help = """
        Usage: gateway query FILE --endpoint URL [OPTIONS]

        Sends the operation in FILE through a Gateway Provider (the same pipeline as the library) and
        writes the response JSON to standard output. Fragments the operation spreads may be defined in
        FILE or in any other .graphql or .gql file of its folder; only the fragments it uses are sent.

        Options:
          --endpoint URL            The GraphQL endpoint (required), such as http://127.0.0.1:4000/graphql.
          --operation NAME          The operation to send, when FILE holds several.
          --variables '<json>'      The variables as a JSON object.
          --var name=value          One variable (repeatable; over --variables). The value is read as
                                    JSON when it is valid JSON (42, true, "42", [1,2], {"a":1}),
                                    otherwise taken as a string.
          --header 'Name: value'    Add a request header (repeatable).
          --bearer TOKEN            Send 'Authorization: Bearer TOKEN'.
          --persisted               Automatic persisted queries: send the SHA-256 hash of the query
                                    first, and the text only when the server does not know it.
          --get                     Send a query by GET (mutations always go by POST).
          --timeout SECONDS         Give up on an attempt when no data arrives for this long (default 60).
          --deadline SECONDS        End the whole call (every attempt, redirect and retry wait) after
                                    this long. Default: 30, or with --timeout T and --retries N,
                                    T × (N + 1) + 5 when that is longer.
          --priority LEVEL          The request's priority in the queue: low, medium (default), high,
                                    veryHigh or blocker.
          --retries N               Send a query again up to N times (0–4, default 0) after 408, 429,
                                    500, 502, 503, 504 or a lost connection. Mutations are never retried.
          --verbose, -v             Print each attempt as a cURL command line, and the request's
                                    metrics, to standard error (secrets show as <redacted>).
        \(CacheFlags.help)

        The variables are checked against the operation's variable definitions before anything is
        sent; declared defaults fill the ones not given.

        Exit status:
          0  the response has data and no errors
          1  the response has errors (with or without data), or is not a GraphQL response
          2  a usage error (bad flags, an unknown operation, a missing or ill-typed variable)
          3  a transport error, a malformed response, or a timeout (the deadline included)
        """

    func run(_ arguments: inout Arguments, output: Output) async throws -> Int32 {
        let options = try QueryOptions(parsing: &arguments, output: output)
        let cache: CacheFlags.Made?
        do {
            cache = try options.cache.makeCache()
        } catch let error as GatewayError {
            output.error("gateway query: --cache: \(error.message)" + (error.fix.map { "\nFix: \($0)" } ?? ""))
            return 2
        }
        let provider = Provider(baseURL: options.baseURL) { config in
            config.graphQL.path = options.path
            config.graphQL.persistedQueries = options.persisted ? .enabled : .disabled
            config.graphQL.usesGETForQueries = options.usesGET
            config.timeout = options.timeout ?? config.timeout
            config.deadline = options.deadline
            config.retryPolicy = .retries(options.retries)
            if let cache { config.cache = cache.cache }
            if options.verbose {
                config.observers = [CURLLogger(logsResponseHeaders: true) { output.error($0) }]
            }
        }
        let requestOptions = options.requestOptions
        var status: Int32 = 0
        do {
            for try await response in Self.responses(provider, options, requestOptions) {
                Self.printBody(response.httpResponse.body, output: output)
                status = 0
                if response.hasErrors {
                    output.error("gateway query: \(options.operation) answered with \(response.errors.count) "
                        + "error\(response.errors.count == 1 ? "" : "s") and partial data")
                    status = 1
                }
            }
        } catch let error as GatewayError {
            status = Self.exitStatus(for: error, options: options, output: output)
        }
        // The store counts hits in batches: write the last ones before the process ends.
        try? await cache?.flush()
        return status
    }

    /// The answer, or with `--cache-policy cache-and-network` the cached answer and then the fresh one.
    private static func responses(
        _ provider: Provider, _ options: QueryOptions, _ requestOptions: GraphQLRequestOptions
    ) -> AsyncThrowingStream<GraphQLResponse<JSONValue>, any Error>
    {
        if options.cache.path != nil, options.cache.policy == .cacheAndNetwork {
            return cachedThenFresh { policy in
                try await provider.fetch(options.operation, variables: options.variables, as: JSONValue.self,
                                         cachePolicy: policy, options: requestOptions)
            }
        }
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    continuation.yield(try await provider.fetch(
                        options.operation, variables: options.variables, as: JSONValue.self, options: requestOptions))
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Prints what the server answered, when it is JSON, and says what went wrong.
    static func exitStatus(for error: GatewayError, options: QueryOptions, output: Output,
                           verb: String = "query") -> Int32 {
        switch error.kind {
        case .invalidVariables, .unknownOperation, .invalidOperation, .invalidRequest, .encoding:
            output.error("gateway \(verb): \(error.message)" + (error.fix.map { "\nFix: \($0)" } ?? ""))
            return 2
        case .graphQLErrors, .unauthenticated:
            if let body = error.response?.body { printBody(body, output: output) }
            output.error("gateway \(verb): \(error.message)")
            return 1
        case .transport, .timeout, .responseTooLarge, .redirectRefused, .tooManyRedirects, .cancelled,
             .tooManyAttempts, .unsupported:
            output.error("gateway \(verb): \(error)")
            return 3
        default:
            if let body = error.response?.body, (try? JSONValue(parsing: [UInt8](body))) != nil {
                printBody(body, output: output)
            }
            output.error("gateway \(verb): \(error)")
            return 1
        }
    }

    /// The body as it came, with a final newline.
    static func printBody(_ body: Data, output: Output) {
        output.writeOut(body)
        if body.last != UInt8(ascii: "\n") { output.writeOut(Data("\n".utf8)) }
    }
}
