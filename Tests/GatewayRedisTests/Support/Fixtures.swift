import Foundation
import Gateway
import GatewayRedis
import GatewayTestSupport
import GraphQLLanguage

/// Collects the warnings a store reports.
final class WarningLog: Sendable {
    private let warnings = Locked<[CacheWarning]>([])

    var all: [CacheWarning] { warnings.value }

    var handler: @Sendable (CacheWarning) -> Void {
        { [warnings] warning in warnings.withLock { $0.append(warning) } }
    }
}

/// A time the test moves: the store's circuit breaker reads it.
final class TestClock: Sendable {
    private let offset = Locked(Duration.zero)

    var now: @Sendable () -> ContinuousClock.Instant {
        { [offset] in ContinuousClock.now + offset.value }
    }

    func advance(by duration: Duration) { offset.withLock { $0 += duration } }
}

/// Keys, entries and stores for tests.
enum Fixture {
    static let operation = CacheKey.Operation(text: "query Track($id:ID!){track(id:$id){id title}}", name: "Track")
    static let albums = CacheKey.Operation(text: "query Album($id:ID!){album(id:$id){id}}", name: "Album")
    static let endpoint = "https://api.example.com/graphql"

    static func key(_ id: Int, partition: CachePartition = .anonymous, operation: CacheKey.Operation = operation)
        -> CacheKey
    {
        operation.key(variables: ["id": .number(JSONNumber(id))], endpoint: endpoint, partition: partition)
    }

    static func entry(_ id: Int, partition: CachePartition = .anonymous, tags: [String] = [], storedAt: Date = Date(),
                      ttl: TimeInterval? = 3600, operation: CacheKey.Operation = operation) -> CacheEntry {
        let now = Date(timeIntervalSince1970: storedAt.timeIntervalSince1970.rounded())
        return CacheEntry(
            key: key(id, partition: partition, operation: operation), status: 200,
            headers: ["Content-Type": "application/json", "ETag": "\"v\(id)\""],
            body: Data(#"{"data":{"track":{"id":"\#(id)","title":"Track \#(id)"}}}"#.utf8), tags: tags,
            storedAt: now, expiresAt: ttl.map { now.addingTimeInterval($0) }, etag: "\"v\(id)\"")
    }

    static func store(_ server: RedisServer, prefix: String = "test:", log: WarningLog = WarningLog(),
                      clock: TestClock = TestClock(), timeout: Duration = .seconds(5),
                      staleRetention: Duration = .seconds(86_400), flightLease: Duration = .seconds(30)) -> RedisCacheStore {
        store(url: server.url, prefix: prefix, log: log, clock: clock, timeout: timeout, staleRetention: staleRetention,
              flightLease: flightLease)
    }

    static func store(url: RedisURL, prefix: String = "test:", log: WarningLog = WarningLog(),
                      clock: TestClock = TestClock(), timeout: Duration = .seconds(5),
                      staleRetention: Duration = .seconds(86_400), flightLease: Duration = .seconds(30)) -> RedisCacheStore {
        RedisCacheStore(client: RedisClient(url: url, poolSize: 2, timeout: timeout), keyPrefix: prefix,
                        retryAfter: .seconds(30), maximumEntryBytes: 1 << 20, staleRetention: staleRetention,
                        maximumRetention: .seconds(7 * 86_400), flightLease: flightLease, onWarning: log.handler,
                        clock: clock.now)
    }
}

/// Records the removals a store hears from other instances; a test waits for the next ones.
final class RemovalLog: Sendable {
    private struct State {
        var heard: [SharedCacheRemoval] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    var heard: [SharedCacheRemoval] { state.withLock { $0.heard } }

    var observer: @Sendable (SharedCacheRemoval) -> Void {
        { [state] removal in
            let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.heard.append(removal)
                let ready = state.waiters.filter { $0.count <= state.heard.count }.map(\.continuation)
                state.waiters.removeAll { $0.count <= state.heard.count }
                return ready
            }
            for waiter in ready { waiter.resume() }
        }
    }

    /// Returns once `count` removals were heard in all.
    func waitFor(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.heard.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
