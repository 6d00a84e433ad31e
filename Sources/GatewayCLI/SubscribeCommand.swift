import Foundation
import Gateway
import GraphQLLanguage

/// `gateway subscribe FILE --endpoint URL`: one GraphQL subscription through the Provider, each
/// event as one JSON line on standard output, until the server completes it or the user
/// interrupts it.
struct SubscribeCommand: Command {
    let name = "subscribe"
    let summary = "Subscribe to a GraphQL subscription and print each event as one JSON line"
    let help = """
        Usage: gateway subscribe FILE --endpoint URL [--protocol \(SubscribeProtocolFlag.names)] [OPTIONS]

        Opens the subscription in FILE through a Gateway Provider (the same pipeline as the library)
        and writes each event to standard output as one line of JSON (the GraphQL response: data,
        errors, extensions), as soon as it arrives, until the server completes the subscription or
        you interrupt it (Ctrl-C). Fragments the operation spreads may be defined in FILE or in any
        other .graphql or .gql file of its folder.

        Options:
          --endpoint URL            The GraphQL endpoint (required), such as http://127.0.0.1:8000/graphql.
          --protocol NAME           How the events travel: \(SubscribeProtocolFlag.help)
          --operation NAME          The subscription to open, when FILE holds several operations.
          --variables '<json>'      The variables as a JSON object.
          --var name=value          One variable (repeatable; over --variables). The value is read as
                                    JSON when it is valid JSON, otherwise taken as a string.
          --header 'Name: value'    Add a request header (repeatable).
          --bearer TOKEN            Send 'Authorization: Bearer TOKEN' (over a WebSocket, in the
                                    handshake and in connection_init's payload).
          --timeout SECONDS         End the subscription when nothing (not even a heartbeat) arrives
                                    for this long (default 3600).
          --deadline SECONDS        Give up when the subscription is not open after this long (default 30).
          --verbose, -v             Print the opening request as a cURL command line to standard error.

        The variables are checked against the operation's variable definitions before anything is
        sent; declared defaults fill the ones not given.

        Exit status:
          0    the server completed the subscription, and no event had errors
          1    an event had errors (printed like the others), or the server ended the subscription
               with errors
          2    a usage error (bad flags, an operation that is not a subscription, a missing or
               ill-typed variable)
          3    a transport error, a malformed event, or a timeout
          130  interrupted (Ctrl-C): the subscription was ended on the server first
        """

    func run(_ arguments: inout Arguments, output: Output) async throws -> Int32 {
        let subscriptionProtocol = try SubscribeProtocolFlag.parse(&arguments)
        let options = try QueryOptions(parsing: &arguments, output: output)
        try Self.refuseQueryOnlyFlags(options)
        guard options.operation.kind == .subscription else {
            throw UsageError("\(options.operation) is a \(options.operation.kind), not a subscription; "
                + "send it with gateway query")
        }
        let provider = Provider(baseURL: options.baseURL) { config in
            config.graphQL.path = options.path
            config.graphQL.subscriptions = subscriptionProtocol
            if let authorization = options.headers["Authorization"] {
                // Over a WebSocket, servers read the credential from connection_init's payload.
                config.webSocket.connectionPayload = { _ in ["Authorization": .string(authorization)] }
            }
            config.timeout = options.timeout ?? .seconds(3600)
            config.deadline = options.deadline
            if options.verbose {
                config.observers = [CURLLogger(logsResponseHeaders: true) { output.error($0) }]
            }
        }
        let requestOptions = options.requestOptions

        let consumer = Task { () -> Int32 in
            await Self.printEvents(provider, options, requestOptions, output: output)
        }
        let interruption = Interruption { consumer.cancel() }
        let status = await consumer.value
        interruption.end()
        return status
    }

    /// Prints every event as it arrives; the exit status.
    private static func printEvents(
        _ provider: Provider, _ options: QueryOptions, _ requestOptions: GraphQLRequestOptions, output: Output
    ) async -> Int32 {
        var status: Int32 = 0
        do {
            let events = provider.subscribe(options.operation, variables: options.variables, as: JSONValue.self,
                                            options: requestOptions)
            for try await event in events {
                printLine(event.httpResponse.body, output: output)
                if event.hasErrors {
                    output.error("gateway subscribe: an event of \(options.operation) carried "
                        + "\(event.errors.count) error\(event.errors.count == 1 ? "" : "s")")
                    status = 1
                }
            }
        } catch is CancellationError {
            return 130
        } catch let error as GatewayError where error.kind == .cancelled {
            return 130
        } catch let error as GatewayError {
            if let body = error.response?.body, error.kind == .graphQLErrors || error.kind == .unauthenticated {
                printLine(body, output: output)
                output.error("gateway subscribe: \(error.message)")
                return 1
            }
            return QueryCommand.exitStatus(for: error, options: options, output: output, verb: "subscribe")
        } catch {
            output.error("gateway subscribe: \(error)")
            return 3
        }
        return Task.isCancelled ? 130 : status
    }

    /// One event as one compact JSON line (a server may send it spread over several lines).
    private static func printLine(_ body: Data, output: Output) {
        guard body.contains(UInt8(ascii: "\n")) || body.contains(UInt8(ascii: "\r")),
              let json = try? JSONValue(parsing: [UInt8](body))
        else {
            QueryCommand.printBody(body, output: output)
            return
        }
        output.print(json.serialized(.compact))
    }

    /// `gateway query`'s flags that mean nothing for a subscription.
    private static func refuseQueryOnlyFlags(_ options: QueryOptions) throws(UsageError) {
        let refused = [
            options.persisted ? "--persisted" : nil, options.usesGET ? "--get" : nil,
            options.retries > 0 ? "--retries" : nil, options.cache.path != nil ? "--cache" : nil,
        ].compactMap { $0 }
        guard refused.isEmpty else {
            throw UsageError("gateway subscribe does not take \(refused.joined(separator: ", ")): "
                + "a subscription is sent once, by POST (or over a WebSocket), and never cached")
        }
    }
}
