import Foundation

/// Times one operation: a warm-up, then batches of runs for the time budget; reports the median
/// time per run and the spread.
///
/// Each sample times a batch of runs sized so that one sample takes about 5 ms, so the clock's own
/// cost does not show in microsecond-scale runs; the per-run time of a sample is its time divided
/// by the batch size.
public struct BenchmarkRunner: Sendable {
    /// The time spent measuring, after the warm-up, in seconds.
    public var budget: Double

    /// Creates a runner.
    /// - Parameter budget: Seconds of measuring per benchmark (about 1 by default).
    public init(budget: Double = 1) {
        self.budget = budget
    }

    /// Measures `body`, which does one run and returns anything derived from its result (so the
    /// work cannot be optimized away).
    /// - Parameters:
    ///   - benchmark: The benchmark's name, for the report.
    ///   - input: What was measured, usually a file path.
    ///   - bytesPerRun: The bytes one run processes, for MB/s; `nil` when throughput means nothing.
    ///   - body: One run.
    /// - Returns: The result.
    public func measure(
        benchmark: String, input: String, bytesPerRun: Int?, _ body: () -> Int
    ) -> BenchmarkResult {
        let clock = ContinuousClock()
        var checksum = 0
        // Warm-up: at least 3 runs and a tenth of the budget; it also estimates one run's time.
        var warmupRuns = 0
        let warmupStart = clock.now
        var elapsed = 0.0
        repeat {
            checksum &+= body()
            warmupRuns += 1
            elapsed = Self.seconds(clock.now - warmupStart)
        } while warmupRuns < 3 || elapsed < budget / 10
        let estimate = elapsed / Double(warmupRuns)
        let batch = max(1, Int(0.005 / max(estimate, 1e-9)))
        var samples: [Double] = []
        let start = clock.now
        repeat {
            let sampleStart = clock.now
            for _ in 0..<batch { checksum &+= body() }
            samples.append(Self.seconds(clock.now - sampleStart) / Double(batch))
        } while samples.count < 5 || Self.seconds(clock.now - start) < budget
        samples.sort()
        return BenchmarkResult(
            benchmark: benchmark, input: input, bytesPerRun: bytesPerRun, runs: samples.count * batch,
            median: Self.percentile(samples, 0.5), p10: Self.percentile(samples, 0.1),
            p90: Self.percentile(samples, 0.9), checksum: checksum)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    private static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }
}
