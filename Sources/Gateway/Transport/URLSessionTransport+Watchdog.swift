import Foundation

extension URLSessionTransport {
    /// One timer for every exchange under way: it enforces each exchange's idle timeout and
    /// deadline without a task or a timer per request.
    ///
    /// Invariant: while an exchange is registered, a watcher task is asleep until a time no later
    /// than that exchange's first due time (`target`). Registering an exchange due sooner than the
    /// target replaces the watcher; otherwise nothing is started. On waking, the watcher checks
    /// every registered exchange (failing those past a limit) and sleeps until the soonest next due
    /// time, or ends when none is registered. Unregistering leaves the watcher as it is: it wakes,
    /// finds less to do, and sleeps again or ends.
    final class Watchdog: Sendable {
        private struct State {
            var exchanges: [Int: TaskState] = [:]
            /// When the current watcher wakes; `nil` when none runs.
            var target: ContinuousClock.Instant?
            var watcher: Task<Void, Never>?
            /// The soonest first due time among exchanges registered since the watcher last
            /// looked, which did not replace it.
            var pending: ContinuousClock.Instant?
            /// Tells a replaced watcher that it is no longer the current one.
            var generation: UInt64 = 0
            var closed = false
        }

        private let state = Locked(State())

        /// Starts watching an exchange.
        func register(_ exchange: TaskState, for identifier: Int) {
            let due = exchange.firstDue
            let replaced: (generation: UInt64, old: Task<Void, Never>?)? = state.withLock { state in
                guard !state.closed else { return nil }
                state.exchanges[identifier] = exchange
                if let target = state.target, target <= due {
                    state.pending = min(state.pending ?? due, due)
                    return nil
                }
                state.generation += 1
                state.target = due
                defer { state.watcher = nil }
                return (state.generation, state.watcher)
            }
            guard let replaced else { return }
            replaced.old?.cancel()
            let watcher = Task { [weak self] () -> Void in
                await self?.watch(generation: replaced.generation, until: due)
            }
            let stale = state.withLock { state -> Bool in
                guard state.generation == replaced.generation, !state.closed else { return true }
                state.watcher = watcher
                return false
            }
            if stale { watcher.cancel() }
        }

        /// Stops watching an exchange that ended.
        func unregister(_ identifier: Int) {
            _ = state.withLock { $0.exchanges.removeValue(forKey: identifier) }
        }

        /// Stops the watcher for good (the transport is going away).
        func close() {
            let watcher = state.withLock { state -> Task<Void, Never>? in
                state.closed = true
                state.exchanges = [:]
                state.target = nil
                defer { state.watcher = nil }
                return state.watcher
            }
            watcher?.cancel()
        }

        private func watch(generation: UInt64, until first: ContinuousClock.Instant) async {
            var wake = first
            while true {
                do {
                    try await Task.sleep(until: wake, clock: .continuous)
                } catch {
                    return
                }
                let exchanges: [TaskState]? = state.withLock { state in
                    guard state.generation == generation else { return nil }
                    state.pending = nil
                    return Array(state.exchanges.values)
                }
                guard let exchanges else { return }
                let now = ContinuousClock.now
                // Checked outside the watchdog's lock: failing an exchange cancels its task.
                let next = exchanges.compactMap { $0.check(now: now) }.min()
                let keepsWatching = state.withLock { state -> Bool in
                    guard state.generation == generation else { return false }
                    var soonest = next
                    if let pending = state.pending { soonest = min(soonest ?? pending, pending) }
                    state.pending = nil
                    guard let soonest, !state.exchanges.isEmpty else {
                        state.target = nil
                        state.watcher = nil
                        return false
                    }
                    wake = soonest
                    state.target = soonest
                    return true
                }
                if !keepsWatching { return }
            }
        }
    }
}

extension URLSessionTransport.TaskState {
    /// When a limit passes if nothing happens meanwhile: the idle timeout after the last
    /// activity, or the deadline if sooner.
    private func due(after lastActivity: ContinuousClock.Instant) -> ContinuousClock.Instant {
        let idle = lastActivity + idleTimeout
        guard let deadline = request.deadline else { return idle }
        return min(idle, deadline)
    }

    /// When the watchdog should look at this exchange first.
    var firstDue: ContinuousClock.Instant { due(after: started) }

    /// Fails the exchange when its deadline or idle timeout has passed at `now`.
    ///
    /// - Returns: when to look again, or `nil` when the exchange has ended (now or before).
    func check(now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        let (ended, lastActivity) = state.withLock { ($0.ended, $0.lastActivity) }
        if ended { return nil }
        if let deadline = request.deadline, now >= deadline {
            fail(GatewayError.deadlinePassed(request, after: now - callStarted))
            return nil
        }
        if now - lastActivity >= idleTimeout {
            fail(GatewayError.idleTimeout(request, after: idleTimeout))
            return nil
        }
        return due(after: lastActivity)
    }
}
