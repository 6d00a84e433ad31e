import Foundation
import Gateway
import GatewayTesting
import GraphQLLanguage

/// A clock the cache tests move by hand.
final class CacheClock: Sendable {
    private let current = Locked(CacheFixtures.now)
    var now: Date { current.value }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    var read: @Sendable () -> Date { { [current] in current.value } }
}

/// A provider over a stub transport with a response cache over a memory store.
struct CachedProvider {
    let stub: StubTransport
    let store: any CacheStore
    let clock = CacheClock()
    let provider: Provider
    let cache: ResponseCache

    init(store: any CacheStore = MemoryCacheStore(), stub: StubTransport = StubTransport(),
         storesErrors: Bool = false, defaultTTL: Duration? = .seconds(300), tokens: (any TokenStore)? = nil,
         warnings: WarningLog? = nil, configure: (inout Provider.Configuration) -> Void = { _ in }) {
        self.stub = stub
        self.store = store
        let cache = ResponseCache(store: store, defaultTTL: defaultTTL, storesResponsesWithErrors: storesErrors,
                                  onWarning: warnings?.handler ?? CacheWarning.printToStandardError, now: clock.read)
        self.cache = cache
        provider = Provider(baseURL: testBaseURL, transport: stub) { config in
            config.cache = cache
            config.retryPolicy = .none
            // No whole-call deadline: a real-time deadline would measure the suite's queue (see makeProvider).
            config.deadline = nil
            config.queue = PriorityRequestQueue(maxConcurrentRequests: 256)
            if let tokens { config.tokens = tokens }
            configure(&config)
        }
    }

    /// The GraphQL requests the stub received.
    var networkCalls: Int { stub.requests.count }
}

/// Operations of a small music API.
enum CacheOperations {
    static func getTrack() throws -> GraphQLOperation {
        try GraphQLOperation("query GetTrack($id: ID!) { track(id: $id) { __typename id title } }")
    }

    static func getArtist() throws -> GraphQLOperation {
        try GraphQLOperation("query GetArtist($id: ID!) { artist(id: $id) { __typename id name } }")
    }

    static func renameTrack() throws -> GraphQLOperation {
        try GraphQLOperation(
            "mutation RenameTrack($id: ID!, $title: String!) "
                + "{ renameTrack(id: $id, title: $title) { __typename id title } }")
    }

    static func track(_ id: String, title: String) -> JSONValue {
        ["track": ["__typename": "Track", "id": .string(id), "title": .string(title)]]
    }

    static func artist(_ id: String, name: String) -> JSONValue {
        ["artist": ["__typename": "Artist", "id": .string(id), "name": .string(name)]]
    }
}

/// Collects the warnings a cache or store reports.
final class WarningLog: Sendable {
    private let warnings = Locked<[CacheWarning]>([])

    var all: [CacheWarning] { warnings.value }

    var handler: @Sendable (CacheWarning) -> Void {
        { [warnings] warning in warnings.withLock { $0.append(warning) } }
    }
}
