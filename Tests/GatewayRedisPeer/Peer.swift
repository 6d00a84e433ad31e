import Foundation
import Gateway
import GatewayRedis
import GraphQLLanguage

/// An application instance for the tests of a cache shared across processes: a provider per
/// user over one `ResponseCache`, whose store is memory in front of a `RedisCacheStore`.
///
/// Arguments: `<redis port> <upstream base URL> <instance name> [<lease in milliseconds>]`. Commands (replies after the id):
/// - `ready`: `ready` once the store hears the other instances.
/// - `fetch <count> <user or -> <id>`: `outcomes` and the cache outcome of each of `count`
///   concurrent fetches of track `id`, comma-separated; `error` and a message when one failed.
/// - `await-flight-waits <n>`: `ok` once `n` waits for another instance's lease have begun.
/// - `logout <user>`: `ok` once the user's partition was purged (as a logout does).
/// - `await-removals <n>`: `ok` once `n` removals of other instances were heard.
/// - `removals`, `memory <user or ->`, `warnings`: counts (removals heard, entries of the
///   partition in the memory layer, warnings and their messages).
/// - `advance <seconds>`: moves the circuit breaker's clock on.
/// - `quit`.
final class Peer: Sendable {
    static let query = "query Track($id: ID!) { track(id: $id) { __typename id title } }"

    let name: String
    let upstream: URL
    let store: RedisCacheStore
    let layered: LayeredCacheStore
    let cache: ResponseCache
    let operation: GraphQLOperation
    private let offset = Locked(Duration.zero)
    private let warnings = Locked<[String]>([])
    private let removals = Counter()
    private let providers = Locked<[String: Provider]>([:])
    private let output = Locked(FileHandle.standardOutput)

    init(arguments: [String]) throws {
        guard (3...4).contains(arguments.count), let port = Int(arguments[0]), let upstream = URL(string: arguments[1]),
              let lease = arguments.count == 4 ? Int(arguments[3]) : 30_000
        else {
            throw PeerError("usage: GatewayRedisPeer <redis port> <upstream base URL> <instance name> [<lease in ms>]")
        }
        name = arguments[2]
        self.upstream = upstream
        let warnings = warnings, offset = offset
        let warn: @Sendable (CacheWarning) -> Void = { warning in warnings.withLock { $0.append(warning.message) } }
        store = RedisCacheStore(
            client: RedisClient(url: RedisURL(host: "127.0.0.1", port: port), poolSize: 4, timeout: .seconds(5)),
            keyPrefix: "peers:", retryAfter: .seconds(30), maximumEntryBytes: 1 << 20,
            staleRetention: .seconds(86_400), maximumRetention: .seconds(7 * 86_400), flightLease: .milliseconds(lease),
            onWarning: warn, clock: { ContinuousClock.now + offset.value })
        layered = LayeredCacheStore(back: store)
        let removals = removals
        store.observeRemovals { _ in removals.add() }
        cache = ResponseCache(store: layered, onWarning: warn)
        operation = try GraphQLOperation(Self.query)
    }

    /// Runs one command line and writes its reply.
    func handle(_ line: String) async {
        var words = line.split(separator: " ").map(String.init)
        guard !words.isEmpty else { return }
        let id = words.removeFirst()
        let reply: String
        do {
            reply = try await run(words)
        } catch {
            reply = "error \(error)".replacingOccurrences(of: "\n", with: " ")
        }
        output.withLock { $0.write(Data("\(id) \(reply)\n".utf8)) }
    }

    private func run(_ words: [String]) async throws -> String {
        switch (words.first ?? "", words.count) {
        case ("ready", 1):
            return await store.listen(timeout: .seconds(30)) ? "ready" : "error the subscription was not confirmed"
        case ("fetch", 4):
            guard let count = Int(words[1]), let id = Int(words[3]) else { throw PeerError("bad fetch: \(words)") }
            return "outcomes " + (try await fetch(count, user: words[2], id: id)).joined(separator: ",")
        case ("await-flight-waits", 2):
            await store.waitForFlightWaits(Int(words[1]) ?? 1)
            return "ok"
        case ("logout", 2):
            await cache.loggedOut(subject: words[1])
            return "ok"
        case ("await-removals", 2):
            await removals.waitFor(Int(words[1]) ?? 1)
            return "ok"
        case ("removals", 1):
            return "removals \(removals.count)"
        case ("memory", 2):
            let partition = words[1] == "-" ? CachePartition.anonymous : .subject(words[1])
            return "memory \(await layered.memory.list(.partition(partition), includeBodies: false).count)"
        case ("warnings", 1):
            let all = warnings.value
            return "warnings \(all.count) " + all.joined(separator: " | ").replacingOccurrences(of: "\n", with: " ")
        case ("advance", 2):
            offset.withLock { $0 += .seconds(Int(words[1]) ?? 0) }
            return "ok"
        case ("quit", 1):
            exit(0)
        default:
            throw PeerError("unknown command: \(words.joined(separator: " "))")
        }
    }

    /// `count` concurrent fetches of track `id` as `user` (`-`: anonymous); their cache outcomes.
    private func fetch(_ count: Int, user: String, id: Int) async throws -> [String] {
        let provider = self.provider(for: user)
        let operation = operation
        return try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<count {
                group.addTask {
                    let response = try await provider.fetch(operation, variables: ["id": .number(JSONNumber(id))],
                                                            as: JSONValue.self)
                    guard response.data["track"]?["title"]?.stringValue == "Track \(id)" else {
                        throw PeerError("unexpected data: \(response.data)")
                    }
                    return response.cacheOutcome.rawValue.replacingOccurrences(of: " ", with: "-")
                }
            }
            var outcomes: [String] = []
            for try await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
    }

    private func provider(for user: String) -> Provider {
        providers.withLock { providers in
            if let provider = providers[user] { return provider }
            let provider = Provider(baseURL: upstream, transport: URLSessionTransport()) { [cache, name] config in
                config.timeout = .seconds(30)
                config.deadline = .seconds(60)
                config.retryPolicy = .none
                config.headers["X-Instance"] = name
                config.cache = cache
                if user != "-" { config.auth = NamedUser(name: user) }
            }
            providers[user] = provider
            return provider
        }
    }
}

/// Names the user in a header and partitions the cache by that user.
struct NamedUser: AuthStage {
    let name: String

    func authorize(_ request: PreparedRequest, context: RequestContext) async throws -> PreparedRequest {
        var request = request
        request.headers["X-User"] = name
        return request
    }

    func cachePartition(for request: PreparedRequest) async -> CachePartition? { .subject(name) }
}

/// A count a task can wait for.
final class Counter: Sendable {
    private let state = Locked((count: 0, waiters: [(Int, CheckedContinuation<Void, Never>)]()))

    var count: Int { state.withLock { $0.count } }

    func add() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.count += 1
            let ready = state.waiters.filter { $0.0 <= state.count }.map(\.1)
            state.waiters.removeAll { $0.0 <= state.count }
            return ready
        }
        for waiter in ready { waiter.resume() }
    }

    func waitFor(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

struct PeerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
