import Foundation
import GraphQLLanguage

/// What one benchmark measured on one input.
public struct BenchmarkResult: Sendable {
    /// The benchmark's name, such as `parse`.
    public var benchmark: String
    /// What was measured, usually a file path.
    public var input: String
    /// The bytes one run processes, when throughput is meaningful.
    public var bytesPerRun: Int?
    /// How many runs were timed (warm-up excluded).
    public var runs: Int
    /// The median time per run, in seconds.
    public var median: Double
    /// The 10th percentile of the time per run, in seconds.
    public var p10: Double
    /// The 90th percentile of the time per run, in seconds.
    public var p90: Double
    /// The 99th percentile of the time per run, in seconds, when runs were timed one by one
    /// (``BenchmarkRunner/measureEachRun(benchmark:input:_:)``).
    public var p99: Double?
    /// A value derived from every run's result, which keeps the work from being optimized away.
    public var checksum: Int
    /// What the times were measured with.
    public var clock: BenchmarkClock = .wall
    /// For a latency another tool measured (its median is the tool's p50): how it was measured.
    public var reference: Reference?

    /// Megabytes (10⁶ bytes) per second at the median, when ``bytesPerRun`` is known.
    public var megabytesPerSecond: Double? {
        bytesPerRun.map { Double($0) / median / 1e6 }
    }

    /// One line for people: `parse FILE: median 5612.3 µs (p10 5590.1, p90 5700.2; 180 runs), 218.1 MB/s`.
    public var line: String {
        if let reference { return referenceLine(reference) }
        let kind = clock == .cpu ? "median CPU time" : "median"
        var text = "\(benchmark) \(input): \(kind) \(Self.format(median * 1e6)) µs"
        text += " (p10 \(Self.format(p10 * 1e6)), p90 \(Self.format(p90 * 1e6))"
        if let p99 { text += ", p99 \(Self.format(p99 * 1e6))" }
        text += "; \(runs) runs)"
        if let rate = megabytesPerSecond, let bytes = bytesPerRun {
            text += ", \(Self.format(rate)) MB/s (\(bytes) bytes)"
        }
        return text
    }

    /// One JSON object: benchmark, input, bytes, runs, median_us, p10_us, p90_us, mb_per_s, and
    /// `"clock": "cpu"` for CPU-clock results.
    public var json: JSONValue {
        if let reference { return referenceJSON(reference) }
        var object: JSONObject = [
            "benchmark": .string(benchmark),
            "input": .string(input),
        ]
        if let bytesPerRun { object.members.append(.init(key: "bytes", value: .number(JSONNumber(bytesPerRun)))) }
        object.members.append(.init(key: "runs", value: .number(JSONNumber(runs))))
        object.members.append(.init(key: "median_us", value: Self.number(median * 1e6)))
        object.members.append(.init(key: "p10_us", value: Self.number(p10 * 1e6)))
        object.members.append(.init(key: "p90_us", value: Self.number(p90 * 1e6)))
        if let p99 { object.members.append(.init(key: "p99_us", value: Self.number(p99 * 1e6))) }
        if let rate = megabytesPerSecond { object.members.append(.init(key: "mb_per_s", value: Self.number(rate))) }
        if clock == .cpu { object.members.append(.init(key: "clock", value: .string(clock.rawValue))) }
        return .object(object)
    }

    static func format(_ value: Double) -> String {
        String(format: value < 10 ? "%.3f" : "%.1f", value)
    }

    static func number(_ value: Double) -> JSONValue {
        let rounded = (value * 1000).rounded() / 1000
        return JSONNumber(rounded).map { .number($0) } ?? .null
    }
}
