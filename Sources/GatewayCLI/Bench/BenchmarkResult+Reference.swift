import Foundation
import GraphQLLanguage

extension BenchmarkResult {
    /// A latency measured by another tool in the same run (such as `redis-benchmark`), printed
    /// beside this process's results: its command, what it reported, and how one of our results
    /// compares with it.
    public struct Reference: Sendable {
        /// The command that measured it, as it can be run again (passwords hidden).
        public var command: String
        /// The mean time per request, in seconds.
        public var average: Double
        /// The 95th and 99th percentiles, in seconds.
        public var p95: Double
        public var p99: Double
        /// What our compared result measured, and its median in seconds.
        public var comparedInput: String?
        public var comparedMedian: Double?
        /// The target for our median over the reference's p50.
        public var targetRatio: Double?

        /// Creates a reference.
        public init(command: String, average: Double, p95: Double, p99: Double,
                    compared: BenchmarkResult? = nil, targetRatio: Double? = nil) {
            self.command = command
            self.average = average
            self.p95 = p95
            self.p99 = p99
            comparedInput = compared?.input
            comparedMedian = compared?.median
            self.targetRatio = targetRatio
        }
    }

    /// The compared result's median over this one's.
    var referenceRatio: Double? {
        guard let compared = reference?.comparedMedian, median > 0 else { return nil }
        return compared / median
    }

    /// `cache redis-benchmark GET, 2048 B: p50 39.0 µs (mean 81.0, p95 63.0, p99 1951.0; 20000 requests);
    /// Redis hit ... is 1.8× this (target ≤ 3×)`, then the command on its own line.
    func referenceLine(_ reference: Reference) -> String {
        var text = "\(benchmark) \(input): p50 \(Self.format(median * 1e6)) µs (mean \(Self.format(reference.average * 1e6))"
        text += ", p95 \(Self.format(reference.p95 * 1e6)), p99 \(Self.format(reference.p99 * 1e6)); \(runs) requests)"
        if let ratio = referenceRatio, let compared = reference.comparedInput {
            text += "; the \(compared) median is \(String(format: "%.2f", ratio))× this"
            if let target = reference.targetRatio {
                let verdict = ratio <= target ? "within" : "NOT within"
                text += " (\(verdict) the target of \(String(format: "%g", target))×)"
            }
        }
        return text + "\n  measured with: \(reference.command)"
    }

    /// The reference as one JSON object: benchmark, input, command, runs, median_us (its p50),
    /// mean_us, p95_us, p99_us, and compared_with, ratio and target_ratio when compared.
    func referenceJSON(_ reference: Reference) -> JSONValue {
        var object: JSONObject = [
            "benchmark": .string(benchmark), "input": .string(input), "command": .string(reference.command),
            "runs": .number(JSONNumber(runs)), "median_us": Self.number(median * 1e6),
            "mean_us": Self.number(reference.average * 1e6), "p95_us": Self.number(reference.p95 * 1e6),
            "p99_us": Self.number(reference.p99 * 1e6),
        ]
        if let ratio = referenceRatio, let compared = reference.comparedInput {
            object.members.append(.init(key: "compared_with", value: .string(compared)))
            object.members.append(.init(key: "ratio", value: Self.number(ratio)))
            if let target = reference.targetRatio {
                object.members.append(.init(key: "target_ratio", value: Self.number(target)))
            }
        }
        return .object(object)
    }
}
