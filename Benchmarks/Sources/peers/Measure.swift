#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A median with its spread: the 10th and 90th percentiles of the samples (or min and max of runs).
struct Spread: Sendable, Codable {
    var median: Double
    var low: Double
    var high: Double

    init(_ values: [Double], percentiles: Bool) {
        let sorted = values.sorted()
        func at(_ fraction: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
        }
        median = at(0.5)
        low = percentiles ? at(0.1) : (sorted.first ?? .nan)
        high = percentiles ? at(0.9) : (sorted.last ?? .nan)
    }
}

/// Times operations: a warm-up, then samples of batches of runs for the time budget.
///
/// Each sample times a batch sized so that it lasts about 5 ms; the per-run time of a sample is
/// its time divided by the batch size. Reports seconds per run: the median and the 10th and 90th
/// percentiles of the samples.
struct Sampler: Sendable {
    /// Seconds of sampling per operation, after the warm-up.
    var budget: Double
}

extension Sampler {
    /// Times several operations in alternation: each is warmed up, then one sample of each is
    /// taken in turn (a "cycle") until every one has at least five samples and the time spent is
    /// `budget` per operation. A change in the machine's load falls on all of them alike.
    ///
    /// - Returns: each operation's seconds per run (median, 10th and 90th percentiles), and for
    ///   each operation after the first, the median over the cycles of its time per run over the
    ///   first one's.
    func measureInterleaved(_ bodies: [() -> Int]) -> (seconds: [Spread], ratiosToFirst: [Double], checksum: Int) {
        let clock = ContinuousClock()
        var checksum = 0
        var batches: [Int] = []
        for body in bodies {
            var warmupRuns = 0
            let warmupStart = clock.now
            repeat {
                checksum &+= body()
                warmupRuns += 1
            } while warmupRuns < 3 || seconds(clock.now - warmupStart) < budget / 5
            let estimate = seconds(clock.now - warmupStart) / Double(warmupRuns)
            batches.append(max(1, Int(0.005 / max(estimate, 1e-9))))
        }
        var samples = Array(repeating: [Double](), count: bodies.count)
        let start = clock.now
        repeat {
            for (index, body) in bodies.enumerated() {
                let sampleStart = clock.now
                for _ in 0..<batches[index] { checksum &+= body() }
                samples[index].append(seconds(clock.now - sampleStart) / Double(batches[index]))
            }
        } while samples[0].count < 5 || seconds(clock.now - start) < budget * Double(bodies.count)
        let ratios = samples.dropFirst().map { other in
            Spread(zip(other, samples[0]).map { $0 / $1 }, percentiles: false).median
        }
        return (samples.map { Spread($0, percentiles: true) }, ratios, checksum)
    }
}

/// Seconds in a `Duration`, as a `Double`.
func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
}

/// What this process has used so far: CPU time (user + system) and its peak resident memory.
enum ProcessUsage {
    static func cpuSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        _ = getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        _ = getrusage(RUSAGE_SELF, &usage)
        #endif
        func value(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) * 1e-6 }
        return value(usage.ru_utime) + value(usage.ru_stime)
    }

    /// The peak resident set size in bytes.
    ///
    /// On Linux this is `VmHWM` from `/proc/self/status`, which starts afresh with each program;
    /// `getrusage`'s `ru_maxrss` survives `exec` and would report the parent's peak.
    static func peakMemoryBytes() -> Int {
        #if os(Linux)
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.dropFirst("VmHWM:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
                .flatMap({ Int($0) })
        {
            return kilobytes * 1024
        }
        #endif
        var usage = rusage()
        #if canImport(Glibc)
        _ = getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return usage.ru_maxrss * 1024
        #else
        _ = getrusage(RUSAGE_SELF, &usage)
        return usage.ru_maxrss
        #endif
    }
}
