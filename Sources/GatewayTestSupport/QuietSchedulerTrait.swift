#if canImport(Testing)
import GatewayTesting
import Testing

/// Runs each test of a suite only once the scheduler is quiet, one such test at a time (see
/// GatewayTesting's `QuietScheduler`): the trait for this package's suites whose tests give
/// real deadlines and timeouts to real servers, written `@Suite(.quietScheduler)`.
package struct QuietSchedulerTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite.
    package var isRecursive: Bool { true }

    /// Waits for its turn and a quiet scheduler, then runs `function`.
    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite itself takes no turn: its tests do, one by one.
        guard !test.isSuite, testCase != nil else { return try await function() }
        try await QuietScheduler.inTurn { try await function() }
    }
}

extension OffPool {
    /// Runs heavy work (a compiler in a child process, say) in the timed checks' turn without
    /// waiting for quiet: no test of a `.quietScheduler` suite, and no `TransportConformance`
    /// check, runs beside it.
    package static func exclusiveOfTimedTests<T>(_ body: () async throws -> T) async rethrows -> T {
        try await QuietScheduler.inTurn(waitingForQuiet: false, body)
    }
}

extension Trait where Self == QuietSchedulerTrait {
    /// Starts each test only once the cooperative pool is quiet, one such test at a time.
    package static var quietScheduler: Self { QuietSchedulerTrait() }
}
#endif
