import Foundation
import Gateway
import GatewaySQLite
import GatewayTestSupport
import GatewayTesting
import GraphQLLanguage
import Testing
@testable import GatewayCLI

/// `--cache` and `--cache-policy` of `gateway query` and `gateway request`, and
/// `gateway normalize --variables`, against a loopback server. SQLite waits for the disk: the
/// suite runs off the cooperative pool.
@Suite(.offPool) struct CacheFlagsTests {
    let files: GraphQLFilesFixture
    let database: String

    init() throws {
        files = try GraphQLFilesFixture()
        database = files.directory.appendingPathComponent("cache.sqlite").path
    }

    private func run(_ arguments: String...) async -> (status: Int32, sink: CapturedOutput) {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(arguments, output: sink.output(currentDirectory: files.directory))
        return (status, sink)
    }

    /// A server answering every GET with a counter that grows, cacheable for a day (so that a machine too busy to run the second request within a minute still finds the first one fresh).
    private static func countingServer() throws -> LoopbackServer {
        let count = Locked(0)
        return try LoopbackServer { request in
            let number = count.withLock { value -> Int in
                value += 1
                return value
            }
            if request.path.hasSuffix("graphql") {
                return .json(#"{"data":{"track":{"__typename":"Track","id":"t1","n":\#(number)}}}"#)
            }
            return .json(#"{"n":\#(number)}"#, headers: ["Cache-Control": "max-age=86400"])
        }
    }

    // MARK: request

    @Test func requestWithCacheAnswersTheSecondTimeFromTheDatabase() async throws {
        let server = try Self.countingServer()
        defer { server.shutdown() }
        let url = try server.url("/items/1").absoluteString
        let first = await run("request", "GET", url, "--cache", database)
        let second = await run("request", "GET", url, "--cache", database)
        #expect(first.status == 0 && second.status == 0, "\(second.sink.stderr)")
        #expect(first.sink.stdout == #"{"n":1}"#)
        #expect(second.sink.stdout == #"{"n":1}"#)
        #expect(server.requests.count == 1)
        let listed = await runCache(["list", "--json"], database: database, now: Date())
        #expect(try listed.json().arrayValue?.count == 1, "\(listed.transcript)")
    }

    @Test func requestNetworkOnlyAlwaysAsksTheServer() async throws {
        let server = try Self.countingServer()
        defer { server.shutdown() }
        let url = try server.url("/items/1").absoluteString
        _ = await run("request", "GET", url, "--cache", database)
        let fresh = await run("request", "GET", url, "--cache", database, "--cache-policy", "network-only")
        #expect(fresh.sink.stdout == #"{"n":2}"#)
        let cached = await run("request", "GET", url, "--cache", database, "--cache-policy", "cache-first")
        #expect(cached.sink.stdout == #"{"n":2}"#)
        #expect(server.requests.count == 2)
    }

    @Test func requestCacheOnlyMissExitsWithOneAndSendsNothing() async throws {
        let server = try Self.countingServer()
        defer { server.shutdown() }
        let (status, sink) = await run("request", "GET", try server.url("/a").absoluteString, "--cache", database,
                                       "--cache-policy", "cache-only")
        #expect(status == 1)
        #expect(sink.stderr.contains("not in the cache"))
        #expect(sink.stdout.isEmpty)
        #expect(server.requests.isEmpty)
    }

    @Test func requestCacheAndNetworkPrintsTheCachedBodyThenTheFreshOne() async throws {
        let server = try Self.countingServer()
        defer { server.shutdown() }
        let url = try server.url("/items/1").absoluteString
        _ = await run("request", "GET", url, "--cache", database)
        let (status, sink) = await run("request", "GET", url, "--cache", database,
                                       "--cache-policy", "cache-and-network")
        #expect(status == 0)
        #expect(sink.stdout == #"{"n":1}{"n":2}"#)
    }

    @Test func cachePolicyWithoutCacheOrAnUnknownPolicyIsAUsageError() async throws {
        let without = await run("request", "GET", "http://127.0.0.1:9/a", "--cache-policy", "cache-only")
        #expect(without.status == 2)
        #expect(without.sink.stderr.contains("--cache-policy needs --cache PATH"))
        let unknown = await run("request", "GET", "http://127.0.0.1:9/a", "--cache", database,
                                "--cache-policy", "sometimes")
        #expect(unknown.status == 2)
        #expect(unknown.sink.stderr.contains("cache-first"))
    }

    @Test func aCacheThatCannotBeOpenedIsAUsageError() async throws {
        try files.write("not-a-folder", "x")
        let path = files.directory.appendingPathComponent("not-a-folder/cache.sqlite").path
        let (status, sink) = await run("request", "GET", "http://127.0.0.1:9/a", "--cache", path)
        #expect(status == 2)
        #expect(sink.stderr.hasPrefix("gateway request: --cache: "))
    }

    @Test func aRedisCacheURLThatCannotBeReadIsAUsageError() async throws {
        let (status, sink) = await run("request", "GET", "http://127.0.0.1:9/a", "--cache", "redis://cache:port/0")
        #expect(status == 2)
        #expect(sink.stderr.contains("not a Redis URL: redis://cache:port/0: the port \"port\" is not a number"))
    }

    @Test func aRedisCacheThatIsDownLeavesTheRequestToTheNetwork() async throws {
        let server = try Self.countingServer()
        defer { server.shutdown() }
        // Nothing listens on port 1 of 127.0.0.1: connecting is refused at once.
        let (status, sink) = await run("request", "GET", try server.url("/items/1").absoluteString,
                                       "--cache", "redis://127.0.0.1:1/0")
        #expect(status == 0, "\(sink.stderr)")
        #expect(sink.stdout == #"{"n":1}"#)
        #expect(server.requests.count == 1)
    }

    @Test func helpListsTheCacheFlags() async throws {
        for command in ["query", "request"] {
            let (status, sink) = await run("help", command)
            #expect(status == 0)
            #expect(sink.stdout.contains("--cache PATH"))
            #expect(sink.stdout.contains("network-first"))
        }
    }

    // MARK: query

    @Test func queryWithCacheAnswersTheSecondTimeFromTheDatabase() async throws {
        let server = try Self.countingServer()
        defer { server.shutdown() }
        try files.write("track.graphql", "query GetTrack($id: ID!) { track(id: $id) { __typename id n } }")
        let endpoint = try server.url("/graphql").absoluteString
        let first = await run("query", "track.graphql", "--endpoint", endpoint, "--var", "id=t1", "--cache", database)
        let second = await run("query", "track.graphql", "--endpoint", endpoint, "--variables", #"{"id":"t1"}"#,
                               "--cache", database)
        #expect(first.status == 0 && second.status == 0, "\(second.sink.stderr)")
        #expect(second.sink.stdout == first.sink.stdout)
        #expect(server.requests.count == 1)
        let other = await run("query", "track.graphql", "--endpoint", endpoint, "--var", "id=t2", "--cache", database)
        #expect(other.sink.stdout.contains(#""n":2"#))
        let cacheOnly = await run("query", "track.graphql", "--endpoint", endpoint, "--var", "id=t3",
                                  "--cache", database, "--cache-policy", "cache-only")
        #expect(cacheOnly.status == 1)
        #expect(server.requests.count == 2)
    }

    // MARK: normalize

    @Test func normalizeWithVariablesPrintsTheKeyAndItsComponents() async throws {
        try files.write("q.graphql", "query GetTrack($id: ID!, $n: Int = 3) { track(id: $id) { id } }")
        let (status, sink) = await run("normalize", "q.graphql", "--variables", #"{"id":"t1"}"#,
                                       "--partition", "alice")
        #expect(status == 0, "\(sink.stderr)")
        let operation = try GraphQLOperation("query GetTrack($id: ID!, $n: Int = 3) { track(id: $id) { id } }")
        let key = try GraphQLRequest<JSONValue>(operation: operation, variables: ["id": "t1"]).payload
            .cacheKey(endpoint: try #require(URL(string: "http://localhost/graphql")), partition: .subject("alice"))
        #expect(sink.stdout == """
            query GetTrack($id:ID!$n:Int=3){track(id:$id){id}}

            cache key: \(key.hex)
              kind: graphql
              operation: (the normalized text above)
              operationName: GetTrack
              variables: {"id":"t1","n":3}
              endpoint: http://localhost/graphql
              partition: alice

            """)
    }

    @Test func normalizeWithoutVariablesPrintsOnlyTheText() async throws {
        try files.write("q.graphql", "query A { a }")
        let (status, sink) = await run("normalize", "q.graphql")
        #expect(status == 0)
        #expect(sink.stdout == "query A{a}\n")
    }

    @Test func normalizeRefusesVariablesThatDoNotFitOrAreNotJSON() async throws {
        try files.write("q.graphql", "query GetTrack($id: ID!) { track(id: $id) { id } }")
        let unfit = await run("normalize", "q.graphql", "--variables", #"{"idx":"t1"}"#)
        #expect(unfit.status == 1)
        #expect(unfit.sink.stderr.contains("$idx"))
        let notJSON = await run("normalize", "q.graphql", "--variables", "{id:")
        #expect(notJSON.status == 2)
        let lonely = await run("normalize", "q.graphql", "--endpoint", "http://x/graphql")
        #expect(lonely.status == 2)
    }
}
