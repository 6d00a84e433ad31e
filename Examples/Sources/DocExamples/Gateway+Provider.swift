// The examples of Sources/Gateway/Provider and Sources/Gateway/Queue.
import Foundation
import Gateway
import GraphQLLanguage

// Provider
func provider(token: String) async throws {
    let provider = Provider(baseURL: URL(string: "https://api.example.com/v1/")!) { config in
        config.auth = .bearer(token)
    }
    let user = try await provider.value(Endpoint<User>.get("users/42"))
    let response = try await provider.send(Endpoint<[Track]>.get("tracks", parameters: ["ids": [1, 2]]))
    print(response.status, response.metrics.total)
    _ = user
}

// Configuration
func configuration(api: URL, key: String) {
    let provider = Provider(baseURL: api) { config in
        config.headers["Accept-Language"] = "en"
        config.interceptors = [APIKey(key: key)]
        config.jsonDecoding = JSONDecodingOptions(dates: .iso8601, keys: .convertFromSnakeCase)
        config.timeout = .seconds(15)
    }
    _ = provider
}

// Provider+Cache
func invalidateCache(provider: Provider) async throws {
    try await provider.invalidateCache(.operation("GetTrack"))
}

func watchEndpoint(provider: Provider) async throws {
    for try await user in provider.watch(Endpoint<User>.get("users/42")) {
        show(user.value)   // from the cache, from the network, then again whenever it changes
    }
}

func watchOperation(provider: Provider, operations: OperationStore) async throws {
    let getTrack = try operations["GetTrack"]
    for try await track in provider.watch(getTrack, variables: ["id": 42], as: GetTrack.self) {
        show(track.data)
    }
}

func fetchWithCachePolicy(provider: Provider, operations: OperationStore) async throws {
    let track = try await provider.fetch(operations["GetTrack"], variables: ["id": 42], as: GetTrack.self,
                                         cachePolicy: .networkFirst)
    _ = track
}

// Provider+GraphQL
func fetch(provider: Provider, queriesURL: URL) async throws {
    let operations = try OperationStore(directory: queriesURL)
    let track = try await provider.fetch(operations["GetTrack"], variables: ["id": 42], as: GetTrack.self)
    print(track.data, track.errors)
}

func fetchWithVariables(provider: Provider, operations: OperationStore) async throws {
    struct LikeTrackVariables: Encodable, Sendable { var input: LikeTrackInput }
    let variables = LikeTrackVariables(input: LikeTrackInput(trackID: "t1"))
    let liked = try await provider.fetch(operations["LikeTrack"], variables: variables, as: Liked.self)
    _ = liked
}

func fetchWithSwiftValues(provider: Provider, operations: OperationStore) async throws {
    let author = "Ada"
    let first = 2
    let books = try await provider.fetch(operations["BooksBy"], variables: ["author": author, "first": first],
                                         as: JSONValue.self)
    // sends "variables": {"author":"Ada","first":2}
    _ = books
}

func sendGraphQLRequest(provider: Provider, operations: OperationStore) async throws {
    let request = try GraphQLRequest<JSONValue>(operation: operations["GetTrack"], variables: ["id": "t1"])
    let response = try await provider.send(request)
    print(response.data, response.persistedQuery, response.metrics.total)
}

// Provider+REST
func send(provider: Provider) async throws {
    let response = try await provider.send(Endpoint<User>.get("users/42"))
    _ = response
}

func value(provider: Provider) async throws {
    let user = try await provider.value(Endpoint<User>.get("users/42"))
    _ = user
}

// Provider+Tasks
func tasks(url: URL) async throws {
    var provider: Provider? = Provider(baseURL: url)
    let tracks = provider?.task(Endpoint<[Track]>.get("tracks"))
    provider = nil            // the last reference: every task under way ends with a cancellation
    _ = try await tracks?.value  // throws CancellationError
}

// Provider+Tokens
func tokens(provider: Provider, credential: Credential) async throws {
    try await provider.tokenCoordinator?.save(credential)   // after signing in
    let user = try await provider.tokenCoordinator?.subject()
    _ = user
}

// PriorityRequestQueue
func priorityQueue(api: URL) {
    let provider = Provider(baseURL: api) { config in
        config.queue = PriorityRequestQueue(maxConcurrentRequests: 4)
    }
    _ = provider
}

// RequestQueue
actor OneAtATime: RequestQueue {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    func enqueue(_ context: RequestContext) async throws -> QueueTicket {
        if busy { await withCheckedContinuation { waiters.append($0) } } else { busy = true }
        return QueueTicket(id: context.id)
    }
    func finished(_ ticket: QueueTicket) async {
        if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() }
    }
}
