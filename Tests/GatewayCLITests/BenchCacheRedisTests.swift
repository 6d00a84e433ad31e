import Foundation
@testable import GatewayCLI
import GatewayRedis
import GatewayTestSupport
import GraphQLLanguage
import Testing

/// `gateway bench cache --redis URL`: the Redis rows beside the others, redis-benchmark's GET
/// beside them, and a Redis left as it was found. The output's form, not the speed.
@Suite(.offPool) struct BenchCacheRedisTests {
    private func run(_ arguments: [String]) async -> (status: Int32, sink: CapturedOutput) {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(arguments, output: sink.output())
        return (status, sink)
    }

    private func keyCount(_ server: RedisServer) async throws -> Int64? {
        let client = RedisClient(url: try RedisURL(server.urlString), poolSize: 1, timeout: .seconds(5))
        return try await client.send(RedisCommand("DBSIZE")).integerValue
    }

    @Test(.requiresRedis) func benchCacheWithRedisPrintsTheRedisRowsAndLeavesNoKeys() async throws {
        let server = try await RedisServer.start()
        let (status, sink) = await run(["bench", "cache", "--entries", "20", "--body-bytes", "256", "--time", "0.05",
                                        "--no-network", "--redis", server.urlString])
        #expect(status == 0, "\(sink.stderr)")
        let lines = sink.stdout.split(separator: "\n").map(String.init)
        for prefix in ["cache memory hit", "cache SQLite hit, 256 B", "cache SQLite write, 256 B",
                       "cache Redis hit, 256 B (key included): median ", "cache Redis write, 256 B (key included): median "] {
            #expect(lines.contains { $0.hasPrefix(prefix) }, "\(prefix)\n\(sink.stdout)")
        }
        if RedisBenchmarkCommand.executable(environment: ProcessInfo.processInfo.environment) != nil {
            let reference = try #require(lines.first { $0.hasPrefix("cache redis-benchmark GET, 256 B (-c 1): p50 ") },
                                         "\(sink.stdout)")
            #expect(reference.contains("; the Redis hit, 256 B (key included) median is "))
            #expect(lines.contains { $0.hasPrefix("  measured with: redis-benchmark -h 127.0.0.1 -p \(server.port) -c 1 -n ")
                                     && $0.contains(" --csv GET gateway-bench:") })
        } else {
            #expect(sink.stderr.contains("redis-benchmark is not installed"))
        }
        #expect(try await keyCount(server) == 0)
    }

    @Test(.requiresRedis) func benchCacheJSONGivesTheComparisonAsNumbers() async throws {
        let server = try await RedisServer.start()
        let (status, sink) = await run(["bench", "cache", "--json", "--entries", "10", "--body-bytes", "100",
                                        "--time", "0.03", "--no-network", "--redis", server.urlString])
        #expect(status == 0, "\(sink.stderr)")
        let objects = try sink.stdout.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        #expect(objects.contains { $0["input"]?.stringValue == "Redis hit, 100 B (key included)" })
        if let reference = objects.first(where: { $0["command"] != nil }) {
            #expect(reference["compared_with"]?.stringValue == "Redis hit, 100 B (key included)")
            #expect(reference["ratio"]?.doubleValue != nil)
            #expect(reference["target_ratio"]?.doubleValue == 3)
        }
        let skipped = await run(["bench", "cache", "--entries", "5", "--time", "0.02", "--no-network",
                                 "--no-redis-benchmark", "--redis", server.urlString])
        #expect(skipped.status == 0)
        #expect(!skipped.sink.stdout.contains("redis-benchmark"))
        #expect(try await keyCount(server) == 0)
    }

    @Test func aBadRedisURLIsAUsageError() async throws {
        let (status, sink) = await run(["bench", "cache", "--redis", "redis://host:nope"])
        #expect(status == 2)
        #expect(sink.stderr.contains("--redis: not a Redis URL"), "\(sink.stderr)")
    }

    @Test func redisBenchmarkCSVGivesTheGETRowInSeconds() throws {
        let csv = """
            "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
            "SET","8230.45","0.114","0.016","0.039","0.063","3.303","35.423"
            "GET gateway-bench:ab:value","11254.92","0.081","0.016","0.041","0.063","1.951","28.479"
            """
        let latency = try #require(RedisBenchmarkCommand.getLatency(csv: csv))
        #expect(abs(latency.p50 - 41e-6) < 1e-9)
        #expect(abs(latency.average - 81e-6) < 1e-9)
        #expect(abs(latency.p99 - 1951e-6) < 1e-9)
        #expect(RedisBenchmarkCommand.getLatency(csv: "\"SET\",\"1\",\"0.1\"") == nil)
    }

    @Test func theShownCommandHidesThePasswordAndSelectsTheDatabase() throws {
        let url = try RedisURL("redis://app:s3cret@10.0.0.5:6380/2")
        let command = RedisBenchmarkCommand(url: url, requests: 5000, valueBytes: 2048, key: nil)
        #expect(command.shown == "redis-benchmark -h 10.0.0.5 -p 6380 --user app -a '***' --dbnum 2 -c 1 -n 5000 "
                + "--csv -d 2048 -t set,get")
        #expect(command.arguments(password: url.password).contains("s3cret"))
    }
}
