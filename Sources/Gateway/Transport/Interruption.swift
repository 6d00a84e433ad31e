import Foundation

/// A way to end one request from outside the task that awaits it.
///
/// `Provider.invalidate()` (and releasing a provider) ends every request under way, yet a
/// request runs in its caller's task, and cancelling that task would cancel the caller's
/// other work too. Each request therefore carries an interruption: the pipeline's own waits
/// (the queue, retry delays, the network coming back) and the transport's exchange end
/// with `CancellationError` when it fires, exactly as they do when the task is cancelled.
///
/// ```swift
/// let interruption = Interruption()
/// let response = try await interruption.whileRunning {
///     try await exchange()          // ends early on its own when interrupted
/// } onInterrupt: {
///     connection.cancel()
/// }
/// ```
public final class Interruption: Sendable {
    private struct State {
        var isInterrupted = false
        var nextID: UInt64 = 0
        var handlers: [(id: UInt64, run: @Sendable () -> Void)] = []
    }

    private let state = Locked(State())

    /// Creates an interruption that has not fired.
    public init() {}

    /// Whether `interrupt()` has been called.
    public var isInterrupted: Bool { state.withLock { $0.isInterrupted } }

    /// Fires the interruption: every handler registered with `whileRunning` runs once, now;
    /// later ones run as soon as they are registered. Calls after the first change nothing.
    public func interrupt() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.isInterrupted else { return [] }
            state.isInterrupted = true
            defer { state.handlers = [] }
            return state.handlers.map(\.run)
        }
        for handler in handlers { handler() }
    }

    /// Throws `CancellationError` when the interruption has fired.
    public func check() throws {
        if isInterrupted { throw CancellationError() }
    }

    /// Runs `operation`; if its task is cancelled or `interruption` fires while it runs (or either
    /// had happened already), `onCancel` runs, on the cancelling or interrupting thread, and
    /// should make `operation` end soon. When both happen it runs once for each, so it must be
    /// harmless to repeat. Without an interruption this is `withTaskCancellationHandler`.
    public static func withCancellationHandler<Value>(
        _ interruption: Interruption?, operation: () async throws -> Value,
        onCancel: @escaping @Sendable () -> Void
    ) async rethrows -> Value {
        guard let interruption else { return try await withTaskCancellationHandler(operation: operation, onCancel: onCancel) }
        return try await interruption.whileRunning {
            try await withTaskCancellationHandler(operation: operation, onCancel: onCancel)
        } onInterrupt: {
            onCancel()
        }
    }

    /// Runs `operation`; if the interruption fires while it runs (or had fired already),
    /// `onInterrupt` runs once, on the interrupting thread, and should make `operation` end soon
    /// (typically with `CancellationError`).
    public func whileRunning<Value>(
        _ operation: () async throws -> Value, onInterrupt: @escaping @Sendable () -> Void
    ) async rethrows -> Value {
        let id = state.withLock { state -> UInt64? in
            guard !state.isInterrupted else { return nil }
            state.nextID += 1
            state.handlers.append((state.nextID, onInterrupt))
            return state.nextID
        }
        guard let id else {
            onInterrupt()
            return try await operation()
        }
        defer { state.withLock { $0.handlers.removeAll { $0.id == id } } }
        return try await operation()
    }
}
