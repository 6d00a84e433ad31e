/// The requests a provider has under way, so that `Provider.invalidate()` can end them all.
///
/// Each request registers how to cancel it when it starts and removes itself when it ends.
/// After `invalidate()`, every registered request is cancelled once and every later
/// registration is refused (and cancelled at once).
final class InFlightRequests: Sendable {
    private struct State {
        var isInvalidated = false
        var cancellers: [UInt64: @Sendable () -> Void] = [:]
    }

    private let state = Locked(State())

    /// Whether `invalidate()` has been called.
    var isInvalidated: Bool { state.withLock { $0.isInvalidated } }

    /// How many requests are under way.
    var count: Int { state.withLock { $0.cancellers.count } }

    /// Registers a request; after invalidation, runs `cancel` at once and returns `false`.
    @discardableResult
    func register(_ id: UInt64, cancel: @escaping @Sendable () -> Void) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.isInvalidated else { return false }
            state.cancellers[id] = cancel
            return true
        }
        if !accepted { cancel() }
        return accepted
    }

    /// Removes a request that ended.
    func remove(_ id: UInt64) {
        _ = state.withLock { $0.cancellers.removeValue(forKey: id) }
    }

    /// Cancels every request under way, once each, and refuses new ones.
    func invalidate() {
        let cancellers = state.withLock { state -> [@Sendable () -> Void] in
            state.isInvalidated = true
            defer { state.cancellers = [:] }
            return Array(state.cancellers.values)
        }
        for cancel in cancellers { cancel() }
    }
}
