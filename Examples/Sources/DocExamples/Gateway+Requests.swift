// The examples of Sources/Gateway/Requests.
import Foundation
import Gateway
import GraphQLLanguage

// Endpoint
func endpoints(provider: Provider, credentials: Login) async throws {
    let user = try await provider.send(Endpoint<User>.get("users/42")).value
    let login = Endpoint<Session>.post("login", body: credentials, encoder: .json)
        .apiError(APIProblem.self)
    let avatar = Endpoint<Data>.get("users/42/avatar")
    let remove = Endpoint<Empty>.delete("users/42")
    _ = (user, login, avatar, remove)
}

func idempotencyKey(draft: OrderDraft) {
    let order = Endpoint<Order>.post("orders", body: draft).idempotencyKey(UUID().uuidString)
    _ = order
}

// GraphQLError
func graphQLErrorPredicate(config: inout Provider.Configuration) {
    config.graphQL.unauthenticated = .code("UNAUTHENTICATED").or(.code("FORBIDDEN_TOKEN"))
}

// GraphQLOperation
func graphQLOperation(queriesURL: URL) throws {
    let operations = try OperationStore(directory: queriesURL)
    let getTrack = try operations["GetTrack"]
    let ping = try GraphQLOperation("query Ping { ping }")
    let generated = GraphQLOperation(definition: GetTrackQuery.definition)
    _ = (getTrack, ping, generated)
}

// GraphQLRequest
func graphQLRequest(provider: Provider, operations: OperationStore) async throws {
    let request = try GraphQLRequest<JSONValue>(operation: operations["GetTrack"], variables: ["id": "t1"])
    let response = try await provider.send(request)
    print(response.data, response.metrics.total)
}

// GraphQLRequest+Variables
func graphQLRequestFromSwiftValues(operations: OperationStore) throws {
    let author = "Ada"
    let first = 2
    let request = try GraphQLRequest<JSONValue>(
        operation: operations["BooksBy"], variables: ["author": author, "first": first])
    _ = request
}

// Endpoint+Authentication
func signInEndpoint(name: String, password: String) {
    let signIn = Endpoint<OAuthTokenResponse>.post("auth/login", body: ["username": name, "password": password])
        .withoutAuthentication()
    _ = signIn
}

// Endpoint+Factories
func endpointFactories(filter: TrackFilter) {
    let page = Endpoint<[Track]>.get("tracks", query: ["page": 2, "size": 50])
    let search = Endpoint<[Track]>.post("tracks/search", body: filter, query: ["page": 2])
    let items = Endpoint<Empty>.delete("tracks", query: [URLQueryItem(name: "id", value: "t1")])
    _ = (page, search, items)
}

// GraphQLResponse
func graphQLResponse(provider: Provider, operations: OperationStore) async throws {
    let response = try await provider.fetch(operations["GetTrack"], variables: ["id": 42], as: GetTrack.self)
    print(response.data.track?.title ?? "none")
    for error in response.errors { print("partial:", error) }   // fields that failed came back null
}

// GraphQLSettings
func graphQLSettings(api: URL) {
    let provider = Provider(baseURL: api) { config in
        config.graphQL.path = "graphql"                 // https://api.example.com/graphql
        config.graphQL.persistedQueries = .enabled
        config.graphQL.unauthenticated = .code("UNAUTHENTICATED").or(.code("TOKEN_EXPIRED"))
    }
    _ = provider
}

func graphQLRequestOptions(provider: Provider, operations: OperationStore) async throws {
    var options = GraphQLRequestOptions()
    options.idempotencyKey = UUID().uuidString      // the mutation may now be retried
    options.priority = .high
    let liked = try await provider.fetch(operations["LikeTrack"], variables: ["input": ["trackID": "t1"]],
                                         as: JSONValue.self, options: options)
    _ = liked
}

// GraphQLVariables
func graphQLVariables() throws {
    let variables: GraphQLVariables = ["id": 42, "kinds": ["TRACK", "ARTIST"]]
    let fromText = try GraphQLVariables(parsing: #"{"id": "42"}"#)
    let fromValue = try GraphQLVariables(encoding: LikeTrackVariables(input: .init(trackID: "42")))
    let author = "Ada"
    let fromSwift = try GraphQLVariables(values: ["author": author, "first": 2])
    _ = (variables, fromText, fromValue, fromSwift)
}

// GraphQLVariables+Values
func graphQLVariablesFromSwiftValues() throws {
    let author = "Ada"
    let first = 2
    let variables = try GraphQLVariables(values: ["author": author, "first": first])
    // {"author":"Ada","first":2}
    _ = variables
}

// OperationStore
func loadOperations() throws {
    let operations = try OperationStore(directory: URL(fileURLWithPath: "Queries"))
    _ = operations
}

func operationStore(provider: Provider, queriesURL: URL, schema: Schema) async throws {
    let operations = try OperationStore(directory: queriesURL, schema: schema)
    let track = try await provider.fetch(operations["GetTrack"], variables: ["id": 42], as: GetTrack.self)
    _ = track
}
