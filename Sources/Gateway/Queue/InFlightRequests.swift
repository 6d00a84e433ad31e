/// The requests a provider has under way, so that `Provider.invalidate()` can cancel them all.
///
/// Each request runs in a task of its own (see `Pipeline`), registered when it starts and
/// removed when it ends. After `invalidate()`, every registered task is cancelled once and every
/// later registration is refused (and its task cancelled at once).
///
/// A task removes itself when it ends, which may come before its starter registers it (a task
/// that runs to its end before its first suspension): the removal then leaves a mark that the
/// registration takes away instead of registering.
final class InFlightRequests: Sendable {
    private enum Slot {
        case running(Task<Delivery, any Error>)
        /// Removed before it was registered.
        case ended
    }

    private struct State {
        var isInvalidated = false
        /// The last request's identifier (how many were numbered).
        var lastID: UInt64 = 0
        var slots: [UInt64: Slot] = [:]
        var running = 0
    }

    private let state = Locked(State())

    /// Whether `invalidate()` has been called.
    var isInvalidated: Bool { state.withLock { $0.isInvalidated } }

    /// The next request's identifier, and whether `invalidate()` has been called (the request
    /// is then refused): both under one lock, as every request asks for both.
    func next() -> (id: RequestID, isInvalidated: Bool) {
        state.withLock { state in
            state.lastID += 1
            return (RequestID(state.lastID), state.isInvalidated)
        }
    }

    /// How many requests are under way.
    var count: Int { state.withLock { $0.running } }

    /// Registers a request's task; after invalidation, cancels it at once and returns `false`.
    /// A task that has already ended is not registered.
    @discardableResult
    func register(_ id: UInt64, _ task: Task<Delivery, any Error>) -> Bool {
        let accepted = state.withLock { state -> Bool in
            let refusing = state.isInvalidated
            switch Self.register(task, in: &state.slots[id], refusing: refusing) {
            case .registered:
                state.running += 1
                return true
            case .alreadyEnded: return true
            case .refused: return false
            }
        }
        if !accepted { task.cancel() }
        return accepted
    }

    /// Removes a request that ended (called by its own task).
    func remove(_ id: UInt64) {
        state.withLock { state in
            if Self.end(&state.slots[id]) { state.running -= 1 }
        }
    }

    // The two helpers below take a slot in place (`&slots[id]`): the dictionary finds the key
    // once, and inserts or removes at the place it found.

    private enum Registration { case registered, alreadyEnded, refused }

    /// Registers `task` in its slot, unless its removal came first (the mark is taken away) or
    /// the registration is refused (after invalidation).
    private static func register(_ task: Task<Delivery, any Error>, in slot: inout Slot?, refusing: Bool)
        -> Registration
    {
        if case .ended? = slot {
            slot = nil
            return .alreadyEnded
        }
        guard !refusing else { return .refused }
        slot = .running(task)
        return .registered
    }

    /// Ends a slot: a registered task is removed (`true`); otherwise the mark is left for the
    /// registration to come.
    private static func end(_ slot: inout Slot?) -> Bool {
        guard slot != nil else {
            slot = .ended
            return false
        }
        slot = nil
        return true
    }

    /// Cancels every request under way, once each, and refuses new ones. The tasks stay
    /// registered until they end and remove themselves.
    func invalidate() {
        let tasks = state.withLock { state -> [Task<Delivery, any Error>] in
            guard !state.isInvalidated else { return [] }
            state.isInvalidated = true
            return state.slots.values.compactMap { slot in
                if case .running(let task) = slot { return task }
                return nil
            }
        }
        for task in tasks { task.cancel() }
    }
}
