/// The requests a provider has under way, so that `Provider.invalidate()` can cancel them all.
///
/// Each request runs in a task of its own (see `Pipeline`), registered when it starts and
/// removed when it ends. After `invalidate()`, every registered task is cancelled once and every
/// later registration is refused (and its task cancelled at once).
final class InFlightRequests: Sendable {
    private struct State {
        var isInvalidated = false
        var tasks: [UInt64: Task<Delivery, any Error>] = [:]
    }

    private let state = Locked(State())

    /// Whether `invalidate()` has been called.
    var isInvalidated: Bool { state.withLock { $0.isInvalidated } }

    /// How many requests are under way.
    var count: Int { state.withLock { $0.tasks.count } }

    /// Registers a request's task; after invalidation, cancels it at once and returns `false`.
    @discardableResult
    func register(_ id: UInt64, _ task: Task<Delivery, any Error>) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.isInvalidated else { return false }
            state.tasks[id] = task
            return true
        }
        if !accepted { task.cancel() }
        return accepted
    }

    /// Removes a request that ended.
    func remove(_ id: UInt64) {
        _ = state.withLock { $0.tasks.removeValue(forKey: id) }
    }

    /// Cancels every request under way, once each, and refuses new ones.
    func invalidate() {
        let tasks = state.withLock { state -> [Task<Delivery, any Error>] in
            state.isInvalidated = true
            defer { state.tasks = [:] }
            return Array(state.tasks.values)
        }
        for task in tasks { task.cancel() }
    }
}
