import Foundation

/// Helps the few tests whose "Done when" asks for a time bound.
enum TimedTest {
    /// Returns once the cooperative thread pool hands a new task a thread within 2 ms three
    /// times in a row (or after `limit`), so that a timed assertion measures the code under test
    /// rather than other suites starting up on a machine with two cores. Nothing here sleeps:
    /// it only measures how soon a task runs.
    static func waitForQuietScheduler(limit: Duration = .seconds(30)) async {
        let giveUpAt = ContinuousClock.now + limit
        var quietInARow = 0
        while quietInARow < 3, ContinuousClock.now < giveUpAt {
            let before = ContinuousClock.now
            await Task.detached {}.value
            quietInARow = ContinuousClock.now - before < .milliseconds(2) ? quietInARow + 1 : 0
        }
    }
}
