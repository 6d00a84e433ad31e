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
    _ = (getTrack, ping)
}

// GraphQLRequest
func graphQLRequest(provider: Provider, operations: OperationStore) async throws {
    let request = try GraphQLRequest<JSONValue>(operation: operations["GetTrack"], variables: ["id": "t1"])
    let response = try await provider.send(request)
    _ = response
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
    _ = (variables, fromText, fromValue)
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
