import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a ``BenchmarkRunner`` times its samples with.
public enum BenchmarkClock: String, Sendable, CaseIterable {
    /// Elapsed time: what a caller waits, including the time other processes run on a busy machine.
    case wall
    /// The measuring thread's CPU time: leaves out the time the thread waits for a processor while
    /// other processes run, so results on a shared machine vary less (contention for caches and
    /// memory still shows).
    case cpu
}

/// Times one operation: a warm-up, then batches of runs for the time budget; reports the median
/// time per run and the spread.
///
/// Each sample times a batch of runs sized so that one sample takes about 5 ms, so the clock's own
/// cost does not show in microsecond-scale runs; the per-run time of a sample is its time divided
/// by the batch size.
public struct BenchmarkRunner: Sendable {
    /// The time spent measuring, after the warm-up, in seconds (always elapsed time).
    public var budget: Double
    /// What the samples are timed with.
    public var clock: BenchmarkClock

    /// Creates a runner.
    /// - Parameters:
    ///   - budget: Seconds of measuring per benchmark (about 1 by default).
    ///   - clock: What the samples are timed with; elapsed time by default.
    public init(budget: Double = 1, clock: BenchmarkClock = .wall) {
        self.budget = budget
        self.clock = clock
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
        let wall = ContinuousClock()
        var checksum = 0
        // Warm-up: at least 3 runs and a tenth of the budget; it also estimates one run's time.
        var warmupRuns = 0
        let warmupStart = wall.now
        let warmupSampleStart = sampleClock()
        var elapsed = 0.0
        repeat {
            checksum &+= body()
            warmupRuns += 1
            elapsed = Self.seconds(wall.now - warmupStart)
        } while warmupRuns < 3 || elapsed < budget / 10
        // The batch size comes from the sample clock, so CPU-clock samples also last about 5 ms.
        elapsed = max(sampleClock() - warmupSampleStart, 1e-9)
        let estimate = elapsed / Double(warmupRuns)
        let batch = max(1, Int(0.005 / max(estimate, 1e-9)))
        var samples: [Double] = []
        let start = wall.now
        repeat {
            let sampleStart = sampleClock()
            for _ in 0..<batch { checksum &+= body() }
            samples.append((sampleClock() - sampleStart) / Double(batch))
        } while samples.count < 5 || Self.seconds(wall.now - start) < budget
        samples.sort()
        return BenchmarkResult(
            benchmark: benchmark, input: input, bytesPerRun: bytesPerRun, runs: samples.count * batch,
            median: Self.percentile(samples, 0.5), p10: Self.percentile(samples, 0.1),
            p90: Self.percentile(samples, 0.9), checksum: checksum, clock: clock)
    }

    /// The sample clock's reading in seconds, from an arbitrary origin.
    private func sampleClock() -> Double {
        switch clock {
        case .wall:
            return Self.seconds(ContinuousClock.now - Self.origin)
        case .cpu:
            var time = timespec()
            guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else {
                return Self.seconds(ContinuousClock.now - Self.origin)
            }
            return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
        }
    }

    private static let origin = ContinuousClock.now

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }
}
