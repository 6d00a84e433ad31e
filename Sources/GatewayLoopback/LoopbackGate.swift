import Foundation

/// A one-way gate for synchronising a test with its loopback handlers: tasks `wait()` until
/// someone calls `open()`. Once open it stays open.
///
/// A handler that awaits a gate holds its response back until the test opens it; a handler
/// that opens a gate tells the test that the request has arrived.
///
/// ```swift
/// let arrived = LoopbackGate(), release = LoopbackGate()
/// let server = try LoopbackServer { _ in
///     arrived.open()
///     await release.wait()
///     return .text("done")
/// }
/// ```
public final class LoopbackGate: Sendable {
    private struct State {
        var isOpen = false
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Guarded(State())

    /// Creates a closed gate.
    public init() {}

    /// Whether the gate has been opened.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Opens the gate and lets every waiting task through.
    public func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until the gate is open, or until the waiting task is cancelled (the server
    /// cancels handlers when it shuts down).
    public func wait() async {
        let id = state.withLock { state -> Int in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.isOpen || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }
}
