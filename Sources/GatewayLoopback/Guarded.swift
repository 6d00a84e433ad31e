import Foundation

/// A value behind a lock with a condition variable, for state shared between the server's
/// threads and the handler tasks.
///
/// `@unchecked Sendable` is sound because `value` is only read or written while `condition`
/// is locked: every access goes through `withLock` or `wait`, and neither lets a reference to
/// the value escape.
final class Guarded<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with the value locked; wakes every waiter afterwards.
    @discardableResult
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Blocks the calling thread until `ready` returns a value or the deadline passes.
    ///
    /// - Parameters:
    ///   - deadline: the latest wall-clock moment to wait until; `nil` waits without limit.
    ///   - ready: looks at the value and returns a result once there is one.
    /// - Returns: the result of `ready`, or `nil` when the deadline passed first.
    func wait<Result>(until deadline: Date? = nil, for ready: (inout Value) -> Result?) -> Result? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = ready(&value) { return result }
            if let deadline {
                if !condition.wait(until: deadline) && Date() >= deadline { return ready(&value) }
            } else {
                condition.wait()
            }
        }
    }
}
