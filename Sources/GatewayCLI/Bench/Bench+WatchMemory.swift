import Foundation
import Gateway
import GraphQLLanguage

/// `gateway bench watch-memory`: whether live watchers leave memory behind. Each cycle starts
/// `Provider.watch` on a cached endpoint, takes its first value and stops; the process's resident
/// memory is read after a warm-up and after each of two rounds of cycles. A watcher that leaked
/// (its task, its place among the cache's watchers, its stream) would grow both rounds alike.
struct WatchMemoryBenchmark {
    var cycles: Int

    /// What was measured.
    struct Report {
        var cycles: Int
        /// Resident bytes after the warm-up, after the first round and after the second.
        var readings: [Int]
        var source: String

        var growthPerCycle: [Double] {
            zip(readings, readings.dropFirst()).map { Double($1 - $0) / Double(cycles) }
        }

        var text: String {
            let growth = growthPerCycle.map { String(format: "%.1f", $0) }.joined(separator: ", ")
            return "watch-memory: \(cycles) watch/stop cycles per round, resident memory (\(source)) "
                + "after the warm-up and two rounds: "
                + readings.map { String(format: "%.1f MB", Double($0) / 1e6) }.joined(separator: ", ")
                + "; growth per cycle: \(growth) bytes"
        }

        var json: JSONValue {
            var object = JSONObject()
            object["benchmark"] = .string("watch-memory")
            object["cycles"] = .int(cycles)
            object["resident_bytes"] = .array(readings.map { .int($0) })
            object["growth_bytes_per_cycle"] = .array(growthPerCycle.map { .double($0) })
            object["measured_with"] = .string(source)
            return .object(object)
        }
    }

    func run() async throws -> Report {
        guard let baseURL = URL(string: "http://127.0.0.1:9/") else { throw BenchError("no base URL") }
        let provider = Provider(baseURL: baseURL, transport: InstantTransport()) { config in
            config.cache = ResponseCache(store: MemoryCacheStore())
        }
        defer { provider.invalidate() }
        let endpoint = Endpoint<Data>.get("item")
        func round(_ count: Int) async throws {
            for _ in 0..<count {
                for try await response in provider.watch(endpoint) {
                    guard response.value.count == PipelineBenchmark.body.count else {
                        throw BenchError("the watcher got an unexpected answer")
                    }
                    break
                }
            }
        }
        try await round(min(1_000, cycles))
        var readings = [ResidentMemory.settledBytes()]
        for _ in 0..<2 {
            try await round(cycles)
            readings.append(ResidentMemory.settledBytes())
        }
        return Report(cycles: cycles, readings: readings, source: ResidentMemory.source)
    }
}

/// `gateway bench watch-memory`: resident memory across watch/stop cycles.
struct WatchMemoryBenchmarkEntry: Benchmark {
    var name: String { "watch-memory" }
    var summary: String { "Resident memory across 2 × 10,000 Provider.watch start/stop cycles (bytes per cycle)" }
    var usage: String { "[--cycles N]" }
    var options: [BenchmarkOption] { [.value("cycles", help: "Watch/stop cycles per round (default 10,000).")] }

    func run(_ input: BenchmarkInput, runner: BenchmarkRunner) async throws -> [BenchmarkResult] {
        let report = try await WatchMemoryBenchmark(cycles: max(1, try input.count("cycles") ?? 10_000)).run()
        input.output.print(input.json ? report.json.serialized(.compact) : report.text)
        return []
    }
}
