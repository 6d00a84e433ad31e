import Foundation

extension BenchmarkRunner {
    /// Measures `body`, an asynchronous run that waits for another process (a server), timing
    /// each run on its own with the elapsed-time clock: the median is then the median run, the
    /// figure a server's own benchmark (`redis-benchmark`'s p50) reports.
    ///
    /// Runs of that kind last tens of microseconds, long enough for the clock's own cost not to
    /// show; the CPU clock of `--cpu` is not used, since a run's time is mostly waiting.
    /// - Parameters:
    ///   - benchmark: The benchmark's name, for the report.
    ///   - input: What was measured.
    ///   - body: One run; returns anything derived from its result.
    /// - Returns: The result, timed with the elapsed-time clock, with its 99th percentile.
    public func measureEachRun(benchmark: String, input: String, _ body: () async -> Int) async -> BenchmarkResult {
        let wall = ContinuousClock()
        var checksum = 0
        var warmupRuns = 0
        let warmupStart = wall.now
        repeat {
            checksum &+= await body()
            warmupRuns += 1
        } while warmupRuns < 3 || Self.seconds(wall.now - warmupStart) < budget / 10
        var samples: [Double] = []
        let start = wall.now
        repeat {
            let runStart = wall.now
            checksum &+= await body()
            samples.append(Self.seconds(wall.now - runStart))
        } while samples.count < 5 || Self.seconds(wall.now - start) < budget
        samples.sort()
        var result = BenchmarkResult(
            benchmark: benchmark, input: input, bytesPerRun: nil, runs: samples.count,
            median: Self.percentile(samples, 0.5), p10: Self.percentile(samples, 0.1),
            p90: Self.percentile(samples, 0.9), checksum: checksum, clock: .wall)
        result.p99 = Self.percentile(samples, 0.99)
        return result
    }
}
