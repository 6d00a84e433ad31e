// One of this package's own test tools (target GatewayTestSupport, not a product); Foundation only.

import Foundation

/// Times synchronous work for the few assertions whose bound an issue sets ("fails within 50 ms"),
/// leaving out the runs during which the operating system took the core away.
///
/// On a machine with two cores shared by a parallel test run (and whatever else runs there), a
/// thread can wait tens of milliseconds for its core in the middle of a measurement: that run
/// measures the machine, not the code. `measure` repeats the work until a run is not interrupted
/// (on Linux: the thread's count of involuntary context switches did not move) and returns that
/// run's wall time, or the shortest run when every attempt was interrupted. The bound a test
/// asserts stays the issue's: `#expect(UndisturbedTiming.measure { … } < .milliseconds(50))`.
package enum UndisturbedTiming {
    /// Runs `body` until one run is not interrupted, at most `attempts` times.
    /// - Parameters:
    ///   - attempts: The most runs to try; at least one.
    ///   - body: The work, which must give the same result each time it runs.
    /// - Returns: The wall time of the first uninterrupted run, or of the shortest run.
    /// - Throws: What `body` throws; the measurement stops there.
    package static func measure(attempts: Int = 5, _ body: () throws -> Void) rethrows -> Duration {
        let clock = ContinuousClock()
        var shortest: Duration?
        for _ in 0..<max(1, attempts) {
            let switchesBefore = involuntarySwitches()
            let elapsed = try clock.measure(body)
            let switchesAfter = involuntarySwitches()
            if let before = switchesBefore, let after = switchesAfter, before == after { return elapsed }
            shortest = min(shortest ?? elapsed, elapsed)
            if switchesBefore == nil { break }  // nothing to tell interrupted runs apart: one run
        }
        return shortest ?? .zero
    }

    /// How often the calling thread has been made to give up its core, where the system says.
    private static func involuntarySwitches() -> Int? {
        #if os(Linux)
        var usage = rusage()
        // RUSAGE_THREAD (1): a GNU extension that Swift does not import by name.
        guard getrusage(__rusage_who_t(1), &usage) == 0 else { return nil }
        return Int(usage.ru_nivcsw)
        #else
        return nil
        #endif
    }
}
