import Foundation
@testable import Gateway
import GatewayTesting
import Testing

/// How a backend says the credential sent was refused: the REST way or the GraphQL way.
enum Refusal: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `GET items/N` answered with HTTP 401.
    case status401
    /// `POST graphql` answered with 200 and a GraphQL error `UNAUTHENTICATED`.
    case graphQL

    var testDescription: String { self == .status401 ? "REST, HTTP 401" : "GraphQL, UNAUTHENTICATED in a 200" }

    /// The refusal's answer.
    var reply: StubReply {
        switch self {
        case .status401:
            .json(#"{"error":"invalid_token"}"#, status: 401, headers: ["WWW-Authenticate": "Bearer"])
        case .graphQL:
            .json(#"{"data":null,"errors":[{"message":"not signed in","extensions":{"code":"UNAUTHENTICATED"}}]}"#)
        }
    }

    /// The successful answer.
    var success: StubReply {
        switch self {
        case .status401: .json(#"{"id":1}"#)
        case .graphQL: .json(#"{"data":{"item":{"id":"1"}}}"#)
        }
    }

    /// What the requests of this kind go to.
    var path: StubMatcher.PathMatch { self == .status401 ? "items" : "graphql" }

    /// The method of the requests of this kind.
    var method: HTTPMethod { self == .status401 ? .get : .post }

    /// Request number `index` of this kind.
    func request(_ index: Int) -> Endpoint<Empty> {
        switch self {
        case .status401:
            Endpoint<Empty>.get("items", query: [URLQueryItem(name: "n", value: String(index))])
        case .graphQL:
            Endpoint<Empty>.post("graphql", body: GraphQLBody(query: "query Item($n: Int!) { item(n: $n) { id } }",
                                                               variables: ["n": index]))
        }
    }
}

/// A GraphQL request body.
struct GraphQLBody: Encodable, Sendable {
    var query: String
    var variables: [String: Int]
}

/// The credential every test starts signed in with.
let oldCredential = Credential(accessToken: "old", refreshToken: "rt-1", subject: "user-1")

/// A refresh endpoint's answer.
func tokens(_ access: String, refresh: String? = nil, expiresIn: Int? = 3600) -> StubReply {
    var fields = [#""access_token":"\#(access)""#]
    if let refresh { fields.append(#""refresh_token":"\#(refresh)""#) }
    if let expiresIn { fields.append(#""expires_in":\#(expiresIn)"#) }
    return .json("{" + fields.joined(separator: ",") + "}")
}

extension StubTransport {
    /// Answers `method` `path` requests that carry `Authorization: Bearer <token>`.
    @discardableResult
    func on(token: String, _ method: HTTPMethod, _ path: StubMatcher.PathMatch, reply: StubReply...) -> StubTransport {
        on(StubMatcher(method: method, path: path, label: "\(method) \(path) with \(token)") { request, _ in
            request.headers["Authorization"] == "Bearer \(token)"
        }, reply: reply)
    }

    /// The refresh requests received.
    var refreshes: [RecordedRequest] { requests.filter(\.isRefresh) }

    /// The requests received other than refreshes.
    var calls: [RecordedRequest] { requests.filter { !$0.isRefresh } }
}

extension RecordedRequest {
    /// The bearer token sent, if any.
    var bearer: String? {
        guard let value = headers["Authorization"], value.hasPrefix("Bearer ") else { return nil }
        return String(value.dropFirst("Bearer ".count))
    }

    /// Whether this is a request to the refresh endpoint.
    var isRefresh: Bool { url.path.hasSuffix("/auth/refresh") }

    /// The refresh token a JSON refresh body carries.
    var refreshToken: String? {
        (try? JSONSerialization.jsonObject(with: body) as? [String: String])?["refresh_token"]
    }
}

/// A provider over `transport` with a token store and the OAuth-style authenticator on
/// `auth/refresh`, no error retries and a queue cap of `cap`.
func tokenProvider(
    _ transport: any Transport, store: any TokenStore, cap: Int = 256, clock: (any TimeSource)? = nil,
    baseURL: URL = testBaseURL, configure: (inout Provider.Configuration) -> Void = { _ in }
) -> Provider {
    Provider(baseURL: baseURL, transport: transport) { config in
        config.tokens = store
        config.authenticator = RefreshTokenAuthenticator(path: "auth/refresh")
        config.queue = PriorityRequestQueue(maxConcurrentRequests: cap)
        config.retryPolicy = .none
        // No whole-call deadline: a real-time deadline would measure the suite's queue (see makeProvider).
        config.deadline = nil
        if let clock { config.clock = clock }
        configure(&config)
    }
}

/// Starts `count` requests at once, each in its own task.
func start(_ count: Int, on provider: Provider, _ request: @escaping @Sendable (Int) -> Endpoint<Empty>)
    -> [Task<Response<Empty>, any Error>]
{
    (0..<count).map { index in Task { try await provider.send(request(index)) } }
}

/// The results of `tasks`, in order.
func results<T>(_ tasks: [Task<T, any Error>]) async -> [Result<T, any Error>] {
    var results: [Result<T, any Error>] = []
    for task in tasks { results.append(await task.result) }
    return results
}

/// The successful values of `results`; records an issue for each failure.
func successes<T>(_ results: [Result<T, any Error>], sourceLocation: SourceLocation = #_sourceLocation) -> [T] {
    results.compactMap { result in
        switch result {
        case .success(let value): return value
        case .failure(let error):
            Issue.record("expected success, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
}

/// The `GatewayError`s of `results`; records an issue for anything else.
func failures<T>(_ results: [Result<T, any Error>], sourceLocation: SourceLocation = #_sourceLocation)
    -> [GatewayError]
{
    results.compactMap { result in
        switch result {
        case .success: Issue.record("expected a failure, got a success", sourceLocation: sourceLocation)
        case .failure(let error as GatewayError): return error
        case .failure(let error): Issue.record("expected a GatewayError, got \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }
}

/// The error that `GET path` ends with; records an issue when it does not fail that way.
func failure(of provider: Provider, _ path: String = "items",
             sourceLocation: SourceLocation = #_sourceLocation) async -> GatewayError? {
    do {
        _ = try await provider.send(Endpoint<Empty>.get(path))
        Issue.record("expected a failure, got a success", sourceLocation: sourceLocation)
    } catch let error as GatewayError {
        return error
    } catch {
        Issue.record("expected a GatewayError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Records auth events, with the time each arrived.
final class AuthEventLog: AuthEventObserver {
    struct Entry: Sendable {
        var name: String
        var subject: String?
        var error: GatewayError?
        var at: ContinuousClock.Instant
    }

    private struct State {
        var entries: [Entry] = []
        var watchers: [(name: String, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    var entries: [Entry] { state.value.entries }
    var names: [String] { entries.map(\.name) }

    private func record(_ name: String, subject: String? = nil, error: GatewayError? = nil) {
        let ready = state.withLock { state in
            state.entries.append(Entry(name: name, subject: subject, error: error, at: .now))
            defer { state.watchers.removeAll { $0.name == name } }
            return state.watchers.filter { $0.name == name }.map(\.continuation)
        }
        for watcher in ready { watcher.resume() }
    }

    /// Returns once an event named `name` has been recorded.
    func waitFor(_ name: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let seen = state.withLock { state in
                if state.entries.contains(where: { $0.name == name }) { return true }
                state.watchers.append((name, continuation))
                return false
            }
            if seen { continuation.resume() }
        }
    }

    func refreshStarted(subject: String?, proactive: Bool) { record(proactive ? "started proactive" : "started") }
    func refreshSucceeded(subject: String?) { record("succeeded", subject: subject) }
    func refreshFailed(_ error: GatewayError) { record("failed", error: error) }
    func sessionExpired(subject: String?, error: GatewayError) { record("expired", subject: subject, error: error) }
    func loggedOut(subject: String?) async { record("logged out", subject: subject) }
    func tokenStoreFailed(_ error: GatewayError) { record("store failed", error: error) }
}

/// Opens when a refresh request has finished in the pipeline (whatever its outcome).
final class RefreshFinished: Observer {
    let gate = Gate()
    func requestFinished(_ outcome: RequestOutcome, metrics: RequestMetrics, context: RequestContext) {
        if context.isCredentialRefresh { gate.open() }
    }
}

/// A clock that stands still until the test moves it: unlike `ManualClock`, real time does not
/// pass on it, so an interval such as the refresh guard's is exact whatever the machine's load.
final class FrozenClock: TimeSource {
    private let start = ContinuousClock.now
    private let startDate = Date(timeIntervalSince1970: 1_750_000_000)
    private let offset = Locked<Duration>(.zero)

    var now: ContinuousClock.Instant { start + offset.value }
    var date: Date { startDate.addingTimeInterval(offset.value.seconds) }

    /// Moves the clock forward.
    func advance(by duration: Duration) { offset.withLock { $0 += duration } }

    /// Moves the clock by `duration` and returns.
    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        advance(by: duration)
    }
}

/// The token tests, one at a time: several of them start hundreds of requests or thousands of
/// file writes, and run alone they leave the two cores to suites that measure time.
@Suite(.serialized) enum TokenTests {}
