import Foundation
import Gateway
import GatewayLoopback
import GatewayRedis
import GatewaySQLite
import GraphQLLanguage

/// `gateway bench cache`: the response cache's hot paths, each with the key computed in the run.
///
/// The per-operation part of the key is computed once, as when an operation is loaded; each run
/// serializes the variables canonically, hashes them with the endpoint and partition, and looks
/// the key up. The SQLite database is filled with `--entries` entries of `--body-bytes` bytes
/// first (in a temporary folder unless `--dir` is given), as a cache in use would be. With
/// `--redis URL`, a Redis store is filled and measured the same way, beside `redis-benchmark`'s
/// own GET (see `RedisCacheBench`).
struct CacheBenchmark: Benchmark {
    var name: String { "cache" }
    var summary: String { "Response cache: key, memory and SQLite (and Redis) hit and write, loopback round trip (µs)" }
    var usage: String {
        "[--entries N] [--body-bytes N] [--dir PATH] [--no-network] [--redis URL [--no-redis-benchmark]]"
    }
    var options: [BenchmarkOption] {
        [
            .value("entries", help: "Entries stored before measuring (default 10000)."),
            .value("body-bytes", help: "Body size of each entry (default 2048)."),
            .value("dir", help: "Folder for the database (default: a new temporary folder, removed after)."),
            .flag("no-network", help: "Skip the loopback HTTP round trip."),
            .value("redis", help: "Also a RedisCacheStore at redis://host:port/db (keys under a prefix of their "
                   + "own, deleted after; each run timed alone), and redis-benchmark's GET p50 (-c 1) for a "
                   + "value of --body-bytes on that server when it is installed."),
            .flag("no-redis-benchmark", help: "With --redis: do not run redis-benchmark."),
        ]
    }

    static let operationText =
        "query GetTrack($id:ID!,$withArtist:Boolean!=true){track(id:$id){id title durationMs "
        + "album{id title}artist@include(if:$withArtist){id name}}}"
    static let endpoint = "https://api.example.com/graphql"

    func run(_ input: BenchmarkInput, runner: BenchmarkRunner) async throws -> [BenchmarkResult] {
        let redisURL = try input.value("redis").map { text throws(UsageError) in
            do { return try RedisURL(text) } catch { throw UsageError("--redis: \(error)") }
        }
        let count = try Self.positive(input.value("entries"), name: "entries", default: 10_000)
        let bodyBytes = try Self.positive(input.value("body-bytes"), name: "body-bytes", default: 2048)
        let (directory, temporary) = try Self.directory(input)
        defer { if temporary { try? FileManager.default.removeItem(atPath: directory) } }

        let operation = CacheKey.Operation(text: Self.operationText, name: "GetTrack")
        let partition = CachePartition.subject("user-1")
        let variables: [JSONValue] = (0..<count).map { ["id": .string("track-\($0)"), "withArtist": true] }
        let body = Data(Self.body(bytes: bodyBytes))
        let now = Date()
        func entry(_ key: CacheKey) -> CacheEntry {
            CacheEntry(key: key, headers: ["Content-Type": "application/json"], body: body, storedAt: now,
                       expiresAt: now.addingTimeInterval(3600))
        }
        func key(_ index: Int) -> CacheKey {
            operation.key(variables: variables[index % count], endpoint: Self.endpoint, partition: partition)
        }

        let memory = MemoryCacheStore(byteLimit: 1 << 30)
        let sqlite: SQLiteCacheStore
        do {
            sqlite = try SQLiteCacheStore(path: directory + "/bench.sqlite", byteLimit: 1 << 30)
            for index in 0..<count {
                let stored = entry(key(index))
                memory.putNow(stored, cost: stored.byteCost, countWrite: true)
                try sqlite.putNow(stored)
            }
        } catch {
            throw BenchmarkFailure(message: "could not prepare the cache: \(error)", status: 2)
        }

        var results: [BenchmarkResult] = []
        var next = 0
        results.append(runner.measure(benchmark: name, input: "key (per-operation part precomputed)",
                                      bytesPerRun: nil) {
            next += 1
            return key(next).digest.hashValue
        })
        results.append(runner.measure(benchmark: name, input: "memory hit (key included)", bytesPerRun: nil) {
            next += 1
            return memory.getNow(key(next), now: now)?.body.count ?? -1
        })
        results.append(runner.measure(benchmark: name, input: "SQLite hit, \(bodyBytes) B (key included)",
                                      bytesPerRun: nil) {
            next += 1
            return (try? sqlite.getNow(key(next), now: now))??.body.count ?? -1
        })
        var fresh = 0
        results.append(runner.measure(benchmark: name, input: "SQLite write, \(bodyBytes) B (key included)",
                                      bytesPerRun: nil) {
            fresh += 1
            let written = operation.key(variables: ["id": .string("new-\(fresh)"), "withArtist": true],
                                        endpoint: Self.endpoint, partition: partition)
            return (try? sqlite.putNow(entry(written))) == true ? 1 : 0
        })
        if let redisURL {
            let redis = RedisCacheBench(
                url: redisURL, count: count, bodyBytes: bodyBytes, output: input.output,
                runsRedisBenchmark: !input.flag("no-redis-benchmark"), key: key,
                newKey: { operation.key(variables: ["id": .string("redis-new-\($0)"), "withArtist": true],
                                        endpoint: Self.endpoint, partition: partition) },
                entry: entry)
            results += try await redis.run(runner: runner, name: name)
        }
        if !input.flag("no-network") {
            results.append(try Self.roundTrip(body: body, runner: runner, name: name))
        }
        return results
    }

    /// One GET over `URLSessionTransport` to a `LoopbackServer` answering the same body: what a hit saves.
    private static func roundTrip(body: Data, runner: BenchmarkRunner, name: String) throws -> BenchmarkResult {
        let server: LoopbackServer
        do {
            server = try LoopbackServer { _ in .data(body, contentType: "application/json") }
        } catch {
            throw BenchmarkFailure(message: "could not start the loopback server: \(error)", status: 2)
        }
        defer { server.shutdown() }
        let transport = URLSessionTransport()
        let request = HTTPRequest(method: .get, url: server.baseURL.appendingPathComponent("track"))
        let received = Locked(0)
        return runner.measure(benchmark: name, input: "loopback HTTP round trip, \(body.count) B", bytesPerRun: nil) {
            // The measuring loop is synchronous; the request runs as a task and this thread waits for it.
            let done = DispatchSemaphore(value: 0)
            Task {
                let count = (try? await transport.send(request).collect(upTo: request.maxResponseBytes))?.body.count ?? -1
                received.withLock { $0 = count }
                done.signal()
            }
            done.wait()
            return received.value
        }
    }

    private static func positive(_ text: String?, name: String, default value: Int) throws(UsageError) -> Int {
        guard let text else { return value }
        guard let number = Int(text), number > 0 else {
            throw UsageError("--\(name) takes a whole number above 0; got '\(text)'")
        }
        return number
    }

    private static func directory(_ input: BenchmarkInput) throws -> (path: String, temporary: Bool) {
        if let given = input.value("dir") { return (input.output.url(forPath: given).path, false) }
        let path = NSTemporaryDirectory() + "gateway-bench-cache-\(UUID().uuidString)"
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw BenchmarkFailure(message: "could not create \(path): \(error)", status: 2)
        }
        return (path, true)
    }

    /// A JSON document of about `bytes` bytes.
    private static func body(bytes: Int) -> [UInt8] {
        var text = #"{"data":{"track":{"id":"track-1","title":""#
        let tail = #""}}}"#
        let fill = max(0, bytes - text.utf8.count - tail.utf8.count)
        text += String(repeating: "x", count: fill) + tail
        return Array(text.utf8)
    }
}
