import Foundation
import Gateway

/// Blocking work already running on a thread of its own (from `OffPool.start`), whose result is
/// awaited later.
package final class BlockingWork<Result: Sendable>: Sendable {
    private enum State {
        case running([CheckedContinuation<Result, any Error>])
        case finished(Swift.Result<Result, any Error>)
    }

    private let state = Locked(State.running([]))

    fileprivate init() {}

    /// What the work returned, once it has ended.
    /// - Throws: What the work threw.
    package var value: Result {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let finished = state.withLock { state -> Swift.Result<Result, any Error>? in
                    switch state {
                    case .finished(let outcome):
                        return outcome
                    case .running(let waiters):
                        state = .running(waiters + [continuation])
                        return nil
                    }
                }
                if let finished { continuation.resume(with: finished) }
            }
        }
    }

    fileprivate func finish(_ outcome: Swift.Result<Result, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Result, any Error>] in
            defer { state = .finished(outcome) }
            if case .running(let waiters) = state { return waiters }
            return []
        }
        for waiter in waiters { waiter.resume(with: outcome) }
    }
}

extension OffPool {
    /// Starts blocking `body` on a new thread of its own now, before the caller's next `await`,
    /// and hands back the work to await later: for the side of a test that must run while the
    /// test waits for something else, such as a server accepting the connection the code under
    /// test opens.
    ///
    /// `async let answer = OffPool.blocking { … }` starts its thread only once the child task gets
    /// a thread of the cooperative pool, which, while other tests compute there, can be long
    /// after the code under test started its clock; `start` needs no pool thread to begin.
    /// - Parameter body: The blocking work.
    /// - Returns: The running work; await its `value`.
    package static func start<Result: Sendable>(
        _ body: @escaping @Sendable () throws -> Result
    ) -> BlockingWork<Result> {
        let work = BlockingWork<Result>()
        let thread = Thread { work.finish(Swift.Result { try body() }) }
        thread.stackSize = OffPoolLane.stackSize
        thread.start()
        return work
    }
}
