import Foundation
import Gateway
import GatewayRedis

/// The Redis rows of `gateway bench cache --redis URL`: a `RedisCacheStore` hit and write with the
/// same keys and bodies as the memory and SQLite rows, then `redis-benchmark`'s own GET latency for
/// a value of the body's size on the same server, in the same run.
///
/// The store's keys go under a prefix of their own (`gateway-bench:<random>:`), deleted when the
/// benchmark ends, so a Redis in use keeps its data.
struct RedisCacheBench {
    /// What the issue asks of a hit: at most this many times `redis-benchmark`'s GET p50.
    static let targetRatio = 3.0

    let url: RedisURL
    let count: Int
    let bodyBytes: Int
    let output: Output
    let runsRedisBenchmark: Bool
    /// The key of the filled entry `index` (a hit), and of a new entry `index` (a write).
    let key: (Int) -> CacheKey
    let newKey: (Int) -> CacheKey
    let entry: (CacheKey) -> CacheEntry

    func run(runner: BenchmarkRunner, name: String) async throws -> [BenchmarkResult] {
        let prefix = "gateway-bench:\(UUID().uuidString.prefix(8).lowercased()):"
        let store = RedisCacheStore(url: url, keyPrefix: prefix, poolSize: 1, timeout: .seconds(5)) { [output] in
            output.error("gateway bench cache: warning: \($0)")
        }
        defer { store.client.close() }
        do {
            try await fill(store)
            let results = try await measure(store, prefix: prefix, runner: runner, name: name)
            try await deleteKeys(under: prefix, client: store.client)
            return results
        } catch {
            try? await deleteKeys(under: prefix, client: store.client)
            throw error
        }
    }

    private func fill(_ store: RedisCacheStore) async throws {
        for index in 0..<count {
            guard try await store.put(entry(key(index))) else {
                throw BenchmarkFailure(message: "could not store entries in the Redis cache at \(url) (see the "
                                       + "warning above); check that Redis runs there and accepts writes", status: 2)
            }
        }
    }

    private func measure(_ store: RedisCacheStore, prefix: String, runner: BenchmarkRunner, name: String)
        async throws -> [BenchmarkResult]
    {
        let now = Date()
        var next = 0
        let hit = await runner.measureEachRun(benchmark: name, input: "Redis hit, \(bodyBytes) B (key included)") {
            next += 1
            return (try? await store.get(key(next % count), now: now))??.body.count ?? -1
        }
        guard hit.checksum > 0 else {
            throw BenchmarkFailure(message: "the Redis cache at \(url) answered no look-up (see the warning above)",
                                   status: 2)
        }
        var fresh = 0
        let write = await runner.measureEachRun(benchmark: name, input: "Redis write, \(bodyBytes) B (key included)") {
            fresh += 1
            return (try? await store.put(entry(newKey(fresh)))) == true ? 1 : 0
        }
        // The client alone, without the store: a GET of a value of the body's size.
        let valueKey = prefix + "value"
        var set = RedisCommand("SET", valueKey)
        set.append(bytes: [UInt8](repeating: UInt8(ascii: "x"), count: bodyBytes))
        set.append(["PX", "600000"])
        _ = try await store.client.send(set)
        let get = RedisCommand("GET", valueKey)
        let client = await runner.measureEachRun(benchmark: name, input: "RedisClient GET alone, \(bodyBytes) B") {
            (try? await store.client.send(get))?.bytes?.count ?? -1
        }
        var results = [hit, write, client]
        if let reference = try await redisBenchmark(valueKey: valueKey, hit: hit, runner: runner, name: name) {
            results.append(reference)
        }
        return results
    }

    /// `redis-benchmark -c 1 GET` of the value of `bodyBytes` bytes stored at `valueKey` (under the
    /// benchmark's prefix) on the same server, when it is installed (and not turned off); otherwise
    /// the command to run by hand, on standard error.
    private func redisBenchmark(valueKey: String, hit: BenchmarkResult, runner: BenchmarkRunner, name: String)
        async throws -> BenchmarkResult?
    {
        guard runsRedisBenchmark else { return nil }
        // About as many requests as the store's hits took in the budget, at least 2,000.
        let requests = max(2000, Int(runner.budget / max(hit.median, 1e-6) * 2))
        guard let executable = RedisBenchmarkCommand.executable(environment: output.environment) else {
            let command = RedisBenchmarkCommand(url: url, requests: requests, valueBytes: bodyBytes, key: nil)
            output.error("gateway bench cache: redis-benchmark is not installed (apt-get install redis-tools), so "
                         + "its GET latency is not measured; to compare by hand, run:\n  \(command.shown)\n"
                         + "and compare its GET p50 with the Redis hit (target: the hit within "
                         + "\(Int(Self.targetRatio))× of it)")
            return nil
        }
        let command = RedisBenchmarkCommand(url: url, requests: requests, valueBytes: bodyBytes, key: valueKey)
        let measured = try await command.run(executable)
        var result = BenchmarkResult(
            benchmark: name, input: "redis-benchmark GET, \(bodyBytes) B (-c 1)", bytesPerRun: nil,
            runs: requests, median: measured.p50, p10: measured.p50, p90: measured.p95, checksum: 0, clock: .wall)
        result.reference = .init(command: command.shown, average: measured.average, p95: measured.p95,
                                 p99: measured.p99, compared: hit, targetRatio: Self.targetRatio)
        return result
    }

    /// Deletes every key under `prefix` (`SCAN`, then `DEL` in batches).
    private func deleteKeys(under prefix: String, client: RedisClient) async throws {
        var cursor = "0"
        repeat {
            let reply = try await client.send(RedisCommand("SCAN", cursor, "MATCH", prefix + "*", "COUNT", "1000"))
            guard let parts = reply.arrayValue, parts.count == 2, let next = parts[0].text else { return }
            let names = (parts[1].arrayValue ?? []).compactMap(\.text)
            if !names.isEmpty {
                var delete = RedisCommand("DEL")
                delete.append(names)
                _ = try await client.send(delete)
            }
            cursor = next
        } while cursor != "0"
    }
}
