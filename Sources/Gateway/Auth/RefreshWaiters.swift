/// The requests waiting for one refresh. They wait without holding the coordinator, so when the
/// refresh ends every one of them goes on (or fails) at once, with the same outcome.
final class RefreshWaiters: Sendable {
    private typealias Waiter = CheckedContinuation<Credential, any Error>

    private struct State {
        var outcome: Result<Credential, any Error>?
        var nextID: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Credential, any Error>] = [:]
    }

    private let state = Locked(State())
    private let gauge: WaiterGauge

    /// Creates an empty list whose size `gauge` reports.
    init(gauge: WaiterGauge) { self.gauge = gauge }

    /// Waits for the outcome (returns it at once when it is known).
    ///
    /// - Returns: the new credential.
    /// - Throws: the refresh's error, or `CancellationError` when this task is cancelled (which
    ///   removes this waiter alone).
    func wait() async throws -> Credential {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Credential, any Error>) in
                let (immediate, ready) = state.withLock { state -> (Result<Credential, any Error>?, [GaugeWatcher]) in
                    if let outcome = state.outcome { return (outcome, []) }
                    if Task.isCancelled { return (.failure(CancellationError()), []) }
                    state.waiters[id] = continuation
                    return (nil, gauge.set(state.waiters.count))
                }
                if let immediate { continuation.resume(with: immediate) }
                for watcher in ready { watcher.resume() }
            }
        } onCancel: {
            let (removed, ready) = state.withLock { state -> (Waiter?, [GaugeWatcher]) in
                guard let removed = state.waiters.removeValue(forKey: id) else { return (nil, []) }
                return (removed, gauge.set(state.waiters.count))
            }
            removed?.resume(throwing: CancellationError())
            for watcher in ready { watcher.resume() }
        }
    }

    /// Ends the wait of everyone waiting with `outcome`, at once; later waiters get it at once.
    /// Only the first call counts.
    func settle(_ outcome: Result<Credential, any Error>) {
        let (waiters, ready) = state.withLock { state -> ([Waiter], [GaugeWatcher]) in
            guard state.outcome == nil else { return ([], []) }
            state.outcome = outcome
            defer { state.waiters = [:] }
            return (Array(state.waiters.values), gauge.set(0))
        }
        for waiter in waiters { waiter.resume(with: outcome) }
        for watcher in ready { watcher.resume() }
    }
}

typealias GaugeWatcher = CheckedContinuation<Void, Never>

/// How many requests wait for the coordinator's refresh under way, with waits for a count (a
/// synchronisation point for tests).
final class WaiterGauge: Sendable {
    private struct State {
        var count = 0
        var watchers: [(count: Int, continuation: GaugeWatcher)] = []
    }

    private let state = Locked(State())

    /// The number of waiting requests.
    var count: Int { state.withLock { $0.count } }

    /// Records `count` and returns the watchers it satisfies, to resume outside any lock.
    func set(_ count: Int) -> [GaugeWatcher] {
        state.withLock { state in
            state.count = count
            let ready = state.watchers.filter { $0.count <= count }.map(\.continuation)
            state.watchers.removeAll { $0.count <= count }
            return ready
        }
    }

    /// Returns once at least `count` requests wait.
    func wait(for count: Int) async {
        await withCheckedContinuation { (continuation: GaugeWatcher) in
            let ready = state.withLock { state -> Bool in
                if state.count >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
