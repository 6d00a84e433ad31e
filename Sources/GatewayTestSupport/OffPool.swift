// Tests that stay healthy on two cores
// ====================================
// `swift test` runs every test at once, in one process, on Swift's cooperative thread pool, and on
// Linux that pool has one thread per core: two on a small CI machine. A test that computes for a
// long stretch without suspending holds one of them; two such tests stop every other test, and
// loopback handlers, transport watchdogs, retry deadlines and timed assertions fail on time.
//
// 1. CPU-heavy work (building big schemas, thousands of parses, a command run over a corpus) and
//    disk-heavy work (SQLite stores, fixture files: on Linux `Data.write` waits for the disk with
//    `fsync`, seconds when the machine is busy) goes in `try await OffPool.run { ... }`, or the
//    whole suite gets the `.offPool` trait. It runs on the lane: a few dedicated threads that the
//    OS time-slices fairly with the pool, so the pool stays free for everybody else. Any code
//    fits, synchronous or async, `#expect` and `try #require` included. Not for tests that need
//    many of their own tasks truly in parallel: the lane has few threads.
// 2. A blocking call (reading a child process's pipe, `waitpid`, a semaphore) goes in
//    `try await OffPool.blocking { ... }`, on a thread of its own. Never `Process.waitUntilExit`:
//    it can spin on Linux. Blocking work that must run while the test awaits something else (a
//    scripted server answering the connection the code under test opens, against its deadline)
//    is started with `let work = OffPool.start { ... }` and awaited with `try await work.value`:
//    `async let x = OffPool.blocking { ... }` starts its thread only when the child task gets a
//    pool thread, which, while other tests hold the pool, can be after the deadline has passed.
// 3. An expensive fixture shared by many tests or parameterized cases (a corpus schema, a command's
//    result for a whole folder, a third-party server) is built once per process through a
//    `static let cache = OnceCache<Key, Value>()`: cases start all at once and would otherwise
//    all build it together.
// 4. Keep each parameterized case to milliseconds: run a command once for many files and compare
//    per file, rather than once per file.
// 5. A test with a time bound from an issue's "Done when" keeps the bound. An async one
//    waits for a quiet scheduler before it starts its clock (`TimedTest.waitForQuietScheduler` in
//    GatewayTests); a synchronous one times its work with `UndisturbedTiming.measure`, which
//    leaves out runs the system interrupted. Only margins no issue sets may be widened, with a
//    comment saying why. A bound on a `ManualClock` (which moves with real time too) adds the real
//    time the test measured around the work.
//
// These tools are this package's own (target GatewayTestSupport, not a product). The test
// targets that use them, GraphQLLanguageTests included, import them from there, so the whole test
// process shares one lane.

import Foundation
import Gateway

/// Runs test work away from Swift's cooperative thread pool, so that CPU-heavy or blocking tests
/// do not starve the others when `swift test` runs everything in parallel on a machine with few
/// cores.
///
/// A test wraps its heavy part, `#expect`s included, in `try await OffPool.run { … }`; a test
/// that blocks (reading a child process's pipe) wraps the blocking call in
/// `try await OffPool.blocking { … }`.
package enum OffPool {
    /// Runs `body` on the lane: threads of their own, shared by all heavy test work, so that its
    /// synchronous stretches (computing, or waiting for the disk) never hold a thread of the
    /// cooperative pool.
    ///
    /// Call it from nonisolated code (a plain `@Test func`): the body runs with the lane as its
    /// task executor, and so do child tasks (`async let`, task groups); unstructured `Task {}`s
    /// and actors with executors of their own do not follow. On Apple platforms older than
    /// macOS 15 / iOS 18, which lack task executors, the body runs where it is called.
    /// - Parameters:
    ///   - isolation: The caller's isolation; leave the default.
    ///   - body: The work.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    package static func run<Result, Failure: Error>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws(Failure) -> Result
    ) async throws(Failure) -> Result {
        if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) {
            return try await withTaskExecutorPreference(OffPoolLane.shared, isolation: isolation, operation: body)
        } else {
            return try await body()
        }
    }

    /// Whether the calling code runs on the lane (always `false` where the lane is unavailable).
    package static var isOnLane: Bool {
        if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) {
            return OffPoolLane.shared.isCurrentThread
        }
        return false
    }

    /// Runs blocking `body` on a new thread of its own and waits for it without holding a thread
    /// of the cooperative pool: for reading a child process's output, `waitpid` and the like.
    /// - Parameter body: The blocking work.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    package static func blocking<Result: Sendable>(
        _ body: @escaping @Sendable () throws -> Result
    ) async throws -> Result {
        try await start(body).value
    }
}

#if canImport(Testing)
import Testing

/// Runs each test (each case of a parameterized one) inside `OffPool.run`: the trait for a test
/// or a whole suite that computes for long stretches, written `@Suite(.offPool)` or
/// `@Test(.offPool, arguments: …)`.
package struct OffPoolTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite.
    package var isRecursive: Bool { true }

    /// Runs `function` on the lane.
    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await OffPool.run { try await function() }
    }
}

extension Trait where Self == OffPoolTrait {
    /// Runs each test or test case on the lane, off the cooperative pool (see `OffPool.run`).
    package static var offPool: Self { OffPoolTrait() }
}
#endif

/// The threads behind `OffPool.run`: one per core beyond the first, so that the cooperative pool
/// keeps a core's worth of time, but at least two, so that one test waiting for the disk does not
/// hold up all the others. A task executor whose jobs run in the order they arrive.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
final class OffPoolLane: TaskExecutor, @unchecked Sendable {
    // `@unchecked Sendable`: `jobs`, `head` and `threadIDs` are only touched while `condition`
    // is locked.
    // A condition variable rather than `Locked` and a semaphore: a thread that finishes a job
    // takes the next one itself, where a semaphore would hand it to a sleeping thread, which on a
    // loaded machine can wait long for a core.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var threadIDs: Set<pthread_t> = []

    static let shared = OffPoolLane(threads: max(2, ProcessInfo.processInfo.activeProcessorCount - 1))

    /// Deep enough for the recursion tests run (parsers check their own depth limits well below).
    static let stackSize = 8 << 20

    private init(threads: Int) {
        for _ in 0..<threads {
            // The lane lives as long as the process; its threads wait for jobs forever.
            let thread = Thread { [self] in runJobs() }
            thread.stackSize = Self.stackSize
            thread.start()
        }
    }

    /// Whether the calling code runs on one of the lane's threads.
    var isCurrentThread: Bool {
        condition.lock()
        defer { condition.unlock() }
        return threadIDs.contains(pthread_self())
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func runJobs() {
        condition.lock()
        threadIDs.insert(pthread_self())
        condition.unlock()
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
