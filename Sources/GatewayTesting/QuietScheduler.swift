#if canImport(Testing)
import Testing

/// Waits, before a test that measures real time, until the cooperative thread pool hands a new task
/// a thread at once.
///
/// When a whole suite starts on a machine with two cores, hundreds of tests are queued on two
/// threads, and a test whose clock starts then measures the queue, not the code. Nothing here
/// sleeps: it only measures how soon a task runs, and gives up waiting after `limit`.
public enum QuietScheduler {
    /// Returns once three new tasks in a row start within 2 ms, or after `limit`.
    public static func wait(limit: Duration = .seconds(60)) async {
        let giveUpAt = ContinuousClock.now + limit
        var quietInARow = 0
        while quietInARow < 3, ContinuousClock.now < giveUpAt {
            let before = ContinuousClock.now
            await Task.detached {}.value
            quietInARow = ContinuousClock.now - before < .milliseconds(2) ? quietInARow + 1 : 0
        }
    }
}

/// One timed test at a time: tests with this trait queue here in arrival order, so that only one of
/// them probes the scheduler and none of them measures another's load.
actor TimedTestTurns {
    static let shared = TimedTestTurns()
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}

/// Runs each test of a suite only once the scheduler is quiet (see `QuietScheduler`), one such test
/// at a time: the trait for suites whose tests give real deadlines and timeouts to real servers.
///
/// ```swift
/// @Suite(.quietScheduler) struct TransportTimeoutTests { /* … */ }
/// ```
public struct QuietSchedulerTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite.
    public var isRecursive: Bool { true }

    /// Waits for a quiet scheduler, then runs `function`.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite itself takes no turn: its tests do, one by one.
        guard !test.isSuite, testCase != nil else { return try await function() }
        await TimedTestTurns.shared.acquire()
        await QuietScheduler.wait()
        do {
            try await function()
        } catch {
            await TimedTestTurns.shared.release()
            throw error
        }
        await TimedTestTurns.shared.release()
    }
}

extension Trait where Self == QuietSchedulerTrait {
    /// Starts each test only once the cooperative pool is quiet (see `QuietScheduler`).
    public static var quietScheduler: Self { QuietSchedulerTrait() }
}
#endif
