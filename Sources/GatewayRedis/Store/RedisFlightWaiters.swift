import Gateway

/// The requests of this instance waiting for another instance's lease on a key to end.
///
/// A waiter is registered before the lease is checked, so that an end published between the
/// check and the wait is kept for it (`pending`) rather than lost. A wait ends with the lease's
/// end, a change of the subscription (ends may have been missed), its timeout, or the waiting
/// task's cancellation.
final class RedisFlightWaiters: Sendable {
    /// Why a wait ended.
    enum Wake: Sendable, Hashable {
        /// The holder ended its lease, having stored an entry or not.
        case released(stored: Bool)
        /// The subscription was confirmed or dropped: an end may have been missed.
        case subscriptionChanged
        /// The wait's time ran out.
        case timedOut
        /// The waiting task was cancelled.
        case cancelled
    }

    private struct Waiter {
        let digest: CacheKey.Digest
        var pending: Wake?
        var continuation: CheckedContinuation<Wake, Never>?
    }

    private struct State {
        var nextID: UInt64 = 0
        var waiters: [UInt64: Waiter] = [:]
        /// How many waits have begun, ever.
        var arrivals = 0
        var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    /// Registers a waiter for `digest`; unregister it when done.
    func register(_ digest: CacheKey.Digest) -> UInt64 {
        state.withLock { state in
            state.nextID &+= 1
            state.waiters[state.nextID] = Waiter(digest: digest)
            return state.nextID
        }
    }

    /// Removes a waiter.
    func unregister(_ id: UInt64) {
        let continuation = state.withLock { $0.waiters.removeValue(forKey: id)?.continuation }
        continuation?.resume(returning: .cancelled)
    }

    /// Waits until the waiter is woken, at most `timeout` when there is one.
    func wait(_ id: UInt64, timeout: Duration?) async -> Wake {
        let timer = timeout.map { timeout in
            Task { [weak self] in
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                self?.wake(id, .timedOut)
            }
        }
        defer { timer?.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Wake, Never>) in
                let (ready, arrived) = state.withLock { state -> (Wake?, [CheckedContinuation<Void, Never>]) in
                    guard var waiter = state.waiters[id] else { return (.cancelled, []) }
                    if let pending = waiter.pending {
                        waiter.pending = nil
                        state.waiters[id] = waiter
                        return (pending, [])
                    }
                    if Task.isCancelled { return (.cancelled, []) }
                    waiter.continuation = continuation
                    state.waiters[id] = waiter
                    state.arrivals += 1
                    let arrived = state.arrivalWaiters.filter { $0.count <= state.arrivals }.map(\.continuation)
                    state.arrivalWaiters.removeAll { $0.count <= state.arrivals }
                    return (nil, arrived)
                }
                for waiter in arrived { waiter.resume() }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            wake(id, .cancelled)
        }
    }

    /// The lease on `digest` ended: its waiters wake.
    func released(_ digest: CacheKey.Digest, stored: Bool) {
        let ids = state.withLock { state in state.waiters.filter { $0.value.digest == digest }.map(\.key) }
        for id in ids { wake(id, .released(stored: stored)) }
    }

    /// The subscription was confirmed or dropped: every waiter wakes to check its lease again.
    func subscriptionChanged() {
        let ids = state.withLock { Array($0.waiters.keys) }
        for id in ids { wake(id, .subscriptionChanged) }
    }

    /// Returns once `count` waits have begun in all (a test's gate: the requests are waiting).
    func waitForArrivals(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.arrivals >= count { return true }
                state.arrivalWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Ends the waiter's wait with `wake`, or keeps `wake` for its next wait (a lease's end is
    /// never replaced by a timeout).
    private func wake(_ id: UInt64, _ wake: Wake) {
        let continuation = state.withLock { state -> CheckedContinuation<Wake, Never>? in
            guard var waiter = state.waiters[id] else { return nil }
            if let continuation = waiter.continuation {
                waiter.continuation = nil
                state.waiters[id] = waiter
                return continuation
            }
            if case .released = waiter.pending {} else { waiter.pending = wake }
            state.waiters[id] = waiter
            return nil
        }
        continuation?.resume(returning: wake)
    }
}
