import Foundation

/// Prints results as they arrive: Markdown tables, or with `--json` one JSON object per benchmark.
final class Report: Sendable {
    let json: Bool
    private let state = Mutexed(State())

    private struct State {
        var graphQLHeader = false
        var httpHeader = false
        var speedups: [String: [Double]] = [:]
        var ratios: [String] = []
    }

    init(json: Bool) { self.json = json }

    /// Writes a line at once (standard output is not buffered here, so progress shows as it happens).
    private func print(_ line: String = "") {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    func header(_ options: Options) {
        guard !json else { return }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        print("peers: Gateway side by side with GraphQLSwift 4.3.0, URLSession and async-http-client 1.37.0")
        print("machine: \(cores) cores, \(ProcessInfo.processInfo.operatingSystemVersionString), load \(loadAverage())")
        print("")
    }

    func graphQL(_ result: GraphQLBenchmarks.Result) {
        if json {
            emitJSON(result)
            return
        }
        let first = state.withLock { state -> Bool in
            defer { state.graphQLHeader = true }
            if let speedup = result.speedup { state.speedups[result.benchmark, default: []].append(speedup) }
            return !state.graphQLHeader
        }
        if first {
            print("GraphQL: median time per run (p10–p90), the same input through each library")
            print("| benchmark | input | bytes | Gateway | GraphQLSwift | Gateway is × faster |")
            print("|---|---|---:|---:|---:|---:|")
        }
        let cells = result.measurements.map { measurement -> String in
            guard let seconds = measurement.seconds else { return "failed: \(measurement.failure ?? "?")" }
            return Self.time(seconds, bytes: result.benchmark == "parse" && result.bytes > 100_000 ? result.bytes : nil)
        }
        let speedup = result.speedup.map { String(format: "%.1f×", $0) } ?? "–"
        let row = [result.benchmark, result.input, "\(result.bytes)"] + cells + [speedup]
        print("| " + row.joined(separator: " | ") + " |")
    }

    func http(_ result: HTTPBenchmarks.Result) {
        if json {
            emitJSON(result)
            return
        }
        let first = state.withLock { state -> Bool in
            defer { state.httpHeader = true }
            if result.client != result.client.bare, let ratio = result.ratioToBare {
                state.ratios.append(
                    "\(result.client.rawValue), \(result.concurrency) in flight: "
                        + String(format: "%.3f", ratio) + " of \(result.client.bare.rawValue)'s requests/s"
                        + " (median of the rounds' ratios)")
            }
            return !state.httpHeader
        }
        if first {
            print("")
            print("HTTP: GET of a \(BenchServer.body.count)-byte JSON body, server in a child process;"
                  + " median of runs (min–max)")
            print("| client | in flight | requests/s | CPU per request | peak memory | vs bare client (req/s), by round |")
            print("|---|---:|---:|---:|---:|---:|")
        }
        let rate = result.requestsPerSecond
        let cpu = result.cpuPerRequestSeconds
        let ratio: String
        if result.client == result.client.bare {
            ratio = "1 (is bare)"
        } else if let rounds = result.ratioToBareByRound {
            ratio = String(format: "%.3f (%.3f–%.3f)", rounds.median, rounds.low, rounds.high)
        } else {
            ratio = "n/a"
        }
        print(
            "| \(result.client.rawValue) | \(result.concurrency) | "
                + String(format: "%.0f (%.0f–%.0f)", rate.median, rate.low, rate.high) + " | "
                + String(format: "%.1f µs (%.1f–%.1f)", cpu.median * 1e6, cpu.low * 1e6, cpu.high * 1e6) + " | "
                + String(format: "%.1f MiB", result.peakMemoryBytes.median / 1_048_576) + " | \(ratio) |")
    }

    func footer() {
        guard !json else { return }
        let (speedups, ratios) = state.withLock { ($0.speedups, $0.ratios) }
        print("")
        for line in ratios { print(line) }
        for benchmark in ["parse", "print", "validate"] {
            guard let values = speedups[benchmark], let low = values.min(), let high = values.max() else { continue }
            print("\(benchmark): Gateway " + String(format: "%.1f× to %.1f×", low, high) + " GraphQLSwift's speed")
        }
    }

    private func emitJSON<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        if let data = try? encoder.encode(value) { print(String(decoding: data, as: UTF8.self)) }
    }

    /// `12.3 µs (11.9–13.0)`, with MB/s at the median when `bytes` is given.
    private static func time(_ spread: Spread, bytes: Int?) -> String {
        func format(_ seconds: Double) -> String {
            seconds >= 1e-3 ? String(format: "%.2f ms", seconds * 1e3) : String(format: "%.1f µs", seconds * 1e6)
        }
        var text = "\(format(spread.median)) (\(format(spread.low))–\(format(spread.high)))"
        if let bytes { text += String(format: ", %.0f MB/s", Double(bytes) / spread.median / 1e6) }
        return text
    }

    private func loadAverage() -> String {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}

/// A value behind a lock.
///
/// `@unchecked Sendable` is sound because `value` is only touched inside `withLock`, which holds
/// the lock for the whole access and lets no reference to the value escape.
final class Mutexed<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
