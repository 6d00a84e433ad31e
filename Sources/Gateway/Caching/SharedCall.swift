/// One network call shared by identical requests in flight (same cache key).
///
/// Every request that joins waits on a continuation of its own, so a cancelled one leaves at
/// once while the others keep waiting; the call itself is cancelled only when every member has
/// left. A call that every member left is `abandoned` and takes no new members.
///
/// The continuations are unchecked ones: a waiting member's continuation is taken out of
/// `waiters` under the lock by whichever comes first, the result or the member's leaving, and
/// resumed by that one alone, so each is resumed exactly once. (A checked continuation would
/// allocate its checker for every member, and its type, sized only at run time, on the task's
/// allocator wherever one is held.)
final class SharedCall: Sendable {
    private struct State {
        var members = Set<UInt64>()
        var nextMember: UInt64 = 0
        var waiters: [UInt64: UnsafeContinuation<Exchange, any Error>] = [:]
        var result: Result<Exchange, any Error>?
        var task: Task<Void, Never>?
        var abandoned = false
    }

    private let state = Locked(State())

    /// How many requests wait for the call.
    var memberCount: Int { state.withLock { $0.members.count } }

    /// Adds a member; `nil` when the call was abandoned (start a new one then).
    func join() -> UInt64? {
        state.withLock { state in
            guard !state.abandoned else { return nil }
            state.nextMember += 1
            state.members.insert(state.nextMember)
            return state.nextMember
        }
    }

    /// Runs `work` in a task of its own; `ended` runs when it finished, before members are answered.
    /// Where the platform allows, the task starts on the calling thread (the first member's,
    /// which then waits for it) and runs there until it first suspends: no hand-over to another
    /// thread to begin with.
    func start(_ work: @escaping @Sendable () async throws -> Exchange, ended: @escaping @Sendable () -> Void) {
        let run: @Sendable () async -> Void = { [self] in
            let result: Result<Exchange, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            ended()
            let waiters = state.withLock { state -> [UnsafeContinuation<Exchange, any Error>] in
                state.result = result
                defer { state.waiters = [:] }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume(with: result) }
        }
        let task: Task<Void, Never>
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            task = Task.immediate { await run() }
        } else {
            task = Task { await run() }
        }
        let cancel = state.withLock { state -> Bool in
            state.task = task
            return state.abandoned
        }
        if cancel { task.cancel() }
    }

    /// Waits for the call's result as `member`; cancelling the waiting task leaves the call.
    func value(member: UInt64, abandoned: @escaping @Sendable () -> Void) async throws -> Exchange {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Exchange, any Error>) in
                let ready = state.withLock { state -> Result<Exchange, any Error>? in
                    if let result = state.result { return result }
                    guard state.members.contains(member) else { return .failure(CancellationError()) }
                    state.waiters[member] = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            leave(member, abandoned: abandoned)
        }
    }

    /// Removes `member`: its wait ends with `CancellationError`; the last member to leave before
    /// the result cancels the call.
    private func leave(_ member: UInt64, abandoned: @Sendable () -> Void) {
        let (waiter, task, last) = state.withLock { state in
            state.members.remove(member)
            let waiter = state.waiters.removeValue(forKey: member)
            let last = state.members.isEmpty && state.result == nil && !state.abandoned
            if last { state.abandoned = true }
            return (waiter, last ? state.task : nil, last)
        }
        waiter?.resume(throwing: CancellationError())
        if last {
            abandoned()
            task?.cancel()
        }
    }
}

extension ResponseCache {
    /// How many requests share the call in flight for `key` (0 when there is none).
    func sharers(of key: CacheKey) -> Int {
        state.withLock { $0.calls[key.digest] }?.memberCount ?? 0
    }

    /// Runs `work` for `key`, or joins the call already running for it.
    ///
    /// - Returns: the call's result, and whether this request joined a call another one started.
    func share(_ key: CacheKey, _ work: @escaping @Sendable () async throws -> Exchange)
        async throws -> (Exchange, joined: Bool)
    {
        let digest = key.digest
        let (call, member, joined) = state.withLock { state -> (SharedCall, UInt64, Bool) in
            if let call = state.calls[digest], let member = call.join() { return (call, member, true) }
            let call = SharedCall()
            state.calls[digest] = call
            return (call, call.join() ?? 0, false)
        }
        let forget: @Sendable () -> Void = { [weak self, weak call] in
            self?.state.withLock { state in
                if let current = state.calls[digest], current === call { state.calls[digest] = nil }
            }
        }
        if !joined { call.start(work, ended: forget) }
        return (try await call.value(member: member, abandoned: forget), joined)
    }
}
