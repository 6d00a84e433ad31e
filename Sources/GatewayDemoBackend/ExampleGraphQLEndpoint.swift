import Foundation
import Gateway
import GatewayLoopback
import GraphQLLanguage

/// The example backend's GraphQL endpoint, `/graphql`: reads a request (a JSON `POST`, a `GET`
/// with the parameters in the URL, or a multipart upload), checks the caller's token, parses and
/// validates the document against `Schemas/music.graphql`, coerces the variables and executes
/// the operation over the catalog.
///
/// Answers, in the GraphQL-over-HTTP shape (`application/json`):
/// - `200 {"data": …}`, with `"errors"` (message, locations, path) when some fields failed;
/// - `200 {"errors": [{"extensions": {"code": "UNAUTHENTICATED"}}]}` without `data` when the
///   request carries an access token that is expired or unknown: the signal GraphQL servers send
///   with a 200, which Gateway's token coordinator recognises as well as a REST 401. Without any
///   token the public catalog answers, and fields about the listener fail with the same code;
/// - `400` with `errors` for a request that cannot be executed: a body that is not a GraphQL
///   request, a syntax error (`GRAPHQL_PARSE_FAILED`), a validation error
///   (`GRAPHQL_VALIDATION_FAILED`), an unknown operation or bad variables (`BAD_USER_INPUT`);
/// - `405` for a mutation sent by `GET`.
struct ExampleGraphQLEndpoint: Sendable {
    let schema: ExampleGraphQLSchema
    let catalog: Locked<ExampleCatalog>
    let sessions: Locked<ExampleSessions>

    /// A request as read from HTTP.
    struct Payload {
        var query: String
        var operationName: String?
        var variables: JSONObject
        var uploads: [String: ExampleMultipart.Part] = [:]
        var isGET = false
    }

    func handle(_ request: LoopbackRequest) -> LoopbackResponse {
        let payload: Payload
        switch Self.read(request) {
        case .success(let read): payload = read
        case .failure(let failure): return Self.errors([failure.json], status: failure.status)
        }
        let viewer: String?
        switch sessions.value.caller(authorization: request.headers["Authorization"]) {
        case .anonymous: viewer = nil
        case .signedIn(let subject): viewer = subject
        case .refused(_, let message):
            return Self.errors([ExampleGraphQLExecutor.error(message, code: "UNAUTHENTICATED")], status: 200)
        }
        let host = request.headers["Host"] ?? "127.0.0.1"
        return execute(payload, viewer: viewer, baseURL: "http://\(host)/")
    }

    /// Parses, validates and runs `payload` for `viewer`.
    func execute(_ payload: Payload, viewer: String?, baseURL: String) -> LoopbackResponse {
        let source = Source(payload.query, name: "GraphQL request")
        let document: Document
        do {
            document = try Parser.parse(source)
        } catch {
            let diagnostic = error.diagnostic
            return Self.errors([ExampleGraphQLExecutor.error(diagnostic.message, at: diagnostic.locations,
                                                             code: "GRAPHQL_PARSE_FAILED")], status: 400)
        }
        let problems = schema.validator.validate(document)
        guard problems.isEmpty else {
            return Self.errors(problems.map {
                ExampleGraphQLExecutor.error($0.message, at: $0.locations, code: "GRAPHQL_VALIDATION_FAILED")
            }, status: 400)
        }
        var operations: [OperationDefinition] = []
        var fragments: [String: FragmentDefinition] = [:]
        for definition in document.definitions {
            if case .operation(let operation) = definition { operations.append(operation) }
            if case .fragment(let fragment) = definition { fragments[fragment.name.value] = fragment }
        }
        let operation: OperationDefinition
        if let name = payload.operationName {
            guard let named = operations.first(where: { $0.name?.value == name }) else {
                return Self.badInput("Unknown operation named \"\(name)\".")
            }
            operation = named
        } else {
            guard operations.count == 1, let only = operations.first else {
                return Self.badInput("Must provide operation name if query contains multiple operations.")
            }
            operation = only
        }
        if payload.isGET && operation.operation != .query {
            return Self.errors([ExampleGraphQLExecutor.error(
                "Can only perform a \(operation.operation.rawValue) operation from a POST request.")],
                status: 405, headers: ["Allow": "POST"])
        }
        let input: ExampleGraphQLInput
        do {
            input = try ExampleGraphQLInput(schema: schema, definitions: operation.variableDefinitions,
                                            given: payload.variables)
        } catch {
            return Self.badInput(error.message)
        }
        let root: ExampleGraphQLObject
        switch operation.operation {
        case .query:
            root = ExampleGraphQLResolvers(catalog: catalog.value, viewer: viewer).query
        case .mutation:
            root = ExampleGraphQLMutations(state: catalog, viewer: viewer, uploads: payload.uploads, baseURL: baseURL)
                .root
        case .subscription:
            return Self.badInput("the example backend does not serve subscriptions")
        }
        var executor = ExampleGraphQLExecutor(schema: schema, source: source, fragments: fragments, input: input)
        let data = executor.execute(operation.selectionSet, root: root)
        var body: JSONObject = [:]
        if !executor.errors.isEmpty { body["errors"] = .array(executor.errors) }
        body["data"] = data
        return .json(JSONValue.object(body).serialized())
    }

    // MARK: Reading requests

    /// A request that is not a GraphQL request, with the status to answer.
    struct ReadFailure: Error {
        var message: String
        var status = 400
        var json: JSONValue { ExampleGraphQLExecutor.error(message, code: "BAD_REQUEST") }
    }

    static func read(_ request: LoopbackRequest) -> Result<Payload, ReadFailure> {
        if request.method == "GET" {
            guard let query = request.queryValue("query") else {
                return .failure(ReadFailure(message: "a GET request needs the document in ?query=…"))
            }
            var variables = JSONObject()
            if let text = request.queryValue("variables"), !text.isEmpty {
                guard let object = (try? JSONValue(parsing: text))?.objectValue else {
                    return .failure(ReadFailure(message: "?variables= must be a JSON object"))
                }
                variables = object
            }
            return .success(Payload(query: query, operationName: request.queryValue("operationName"),
                                    variables: variables, isGET: true))
        }
        guard request.method == "POST" else {
            return .failure(ReadFailure(message: "use POST (or GET for queries)", status: 405))
        }
        let contentType = request.headers["Content-Type"] ?? ""
        if contentType.lowercased().hasPrefix("multipart/form-data") {
            return readMultipart(request.body, contentType: contentType)
        }
        guard contentType.lowercased().hasPrefix("application/json") else {
            return .failure(ReadFailure(message: "send the request as application/json or multipart/form-data, "
                                        + "not \(contentType.isEmpty ? "no Content-Type" : contentType)", status: 415))
        }
        return readJSON(request.body)
    }

    private static func readJSON(_ body: Data) -> Result<Payload, ReadFailure> {
        guard let object = (try? JSONValue(parsing: [UInt8](body)))?.objectValue else {
            return .failure(ReadFailure(message: "the body must be a JSON object {\"query\": …, \"variables\": …}"))
        }
        guard let query = object["query"]?.stringValue else {
            return .failure(ReadFailure(message: "the request has no \"query\" string (persisted queries are not "
                                        + "supported by the example backend)"))
        }
        if let variables = object["variables"], !variables.isNull, variables.objectValue == nil {
            return .failure(ReadFailure(message: "\"variables\" must be a JSON object"))
        }
        return .success(Payload(query: query, operationName: object["operationName"]?.stringValue,
                                variables: object["variables"]?.objectValue ?? [:]))
    }

    /// The GraphQL multipart request specification: an `operations` part (the JSON request with
    /// `null` where files go), a `map` part (`{"0": ["variables.image"]}`) and the files.
    private static func readMultipart(_ body: Data, contentType: String) -> Result<Payload, ReadFailure> {
        let parts: [ExampleMultipart.Part]
        do {
            parts = try ExampleMultipart.parts(of: body, contentType: contentType)
        } catch {
            return .failure(ReadFailure(message: "the multipart body cannot be read: \(error.message)"))
        }
        guard let operations = parts.first(where: { $0.name == "operations" }) else {
            return .failure(ReadFailure(message: "a multipart request needs an \"operations\" part first"))
        }
        var payload: Payload
        switch readJSON(operations.body) {
        case .success(let read): payload = read
        case .failure(let failure): return .failure(failure)
        }
        let map = parts.first { $0.name == "map" }.flatMap { try? JSONValue(parsing: [UInt8]($0.body)) }
        guard let map = map?.objectValue else {
            return .failure(ReadFailure(message: "a multipart request needs a \"map\" part: a JSON object of "
                                        + "file part names to variable paths"))
        }
        for member in map {
            guard let file = parts.first(where: { $0.name == member.key }) else {
                return .failure(ReadFailure(message: "the map names a file part \"\(member.key)\" that was not sent"))
            }
            for path in member.value.arrayValue?.compactMap(\.stringValue) ?? [] {
                let pieces = path.split(separator: ".").map(String.init)
                guard pieces.count == 2, pieces[0] == "variables" else {
                    return .failure(ReadFailure(message: "the example backend maps files to top-level variables "
                                                + "(\"variables.image\"), not \"\(path)\""))
                }
                payload.variables[pieces[1]] = .object(["upload": .string(member.key)])
            }
            payload.uploads[member.key] = file
        }
        return .success(payload)
    }

    // MARK: Answers

    static func errors(_ errors: [JSONValue], status: Int, headers: LoopbackHeaders = [:]) -> LoopbackResponse {
        .json(JSONValue.object(["errors": .array(errors)]).serialized(), status: status, headers: headers)
    }

    static func badInput(_ message: String) -> LoopbackResponse {
        errors([ExampleGraphQLExecutor.error(message, code: "BAD_USER_INPUT")], status: 400)
    }
}
