import Foundation

/// A value guarded by a lock: one lock around one piece of mutable state.
///
/// `@unchecked Sendable` is sound here because every access to `state` goes through `withLock`,
/// which holds `lock` for the whole closure, and the closure cannot `await` (it is synchronous).
/// Never call back into code that may take the same lock from inside `withLock`.
package final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    /// Creates the guarded value.
    package init(_ state: State) { self.state = state }

    /// Runs `body` with exclusive access to the state and returns its result.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    /// A copy of the current state.
    package var value: State { withLock { $0 } }
}
