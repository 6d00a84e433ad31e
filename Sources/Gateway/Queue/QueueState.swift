/// The state of a `PriorityRequestQueue`, changed only under the queue's lock. Each change
/// returns the continuations to resume, which the queue resumes after letting go of the lock.
///
/// Invariant after every change: a blocker is active (running or waiting), or `running` is at the
/// cap, or nothing but blockers waits. So a request that finds no blocker and a free slot can be
/// admitted without waiting.
struct QueueState {
    typealias StatusWaiter = (condition: @Sendable (PriorityRequestQueue.Status) -> Bool,
                              continuation: CheckedContinuation<Void, Never>)

    /// Continuations to resume once the lock is released.
    struct Wakes {
        var admitted: [(CheckedContinuation<QueueTicket, any Error>, QueueTicket)] = []
        var cancelled: [CheckedContinuation<QueueTicket, any Error>] = []
        var statusWaiters: [CheckedContinuation<Void, Never>] = []

        func resume() {
            for (continuation, ticket) in admitted { continuation.resume(returning: ticket) }
            for continuation in cancelled { continuation.resume(throwing: CancellationError()) }
            for continuation in statusWaiters { continuation.resume() }
        }
    }

    private struct Waiter {
        let id: RequestID
        let priority: RequestPriority
        let enqueuedAt: ContinuousClock.Instant
        let blockedAtEnqueue: Duration
        let continuation: CheckedContinuation<QueueTicket, any Error>
    }

    private static let blockerLane = RequestPriority.blocker.rawValue

    let cap: Int
    let agingInterval: Duration?
    let clock: any TimeSource
    let onAdmit: (@Sendable (QueueTicket, RequestPriority) -> Void)?

    private var waiters: [UInt64: Waiter] = [:]
    /// Sequences by priority (index = raw value; blockers last). Entries whose waiter left are
    /// skipped when they reach the front.
    private var lanes = Array(repeating: SequenceFIFO(), count: RequestPriority.allCases.count)
    private var waitingCounts = Array(repeating: 0, count: RequestPriority.allCases.count)
    private var running = 0
    private var runningBlocker: UInt64?
    /// Admitted and not yet finished: sequence → whether it is a blocker.
    private var admitted: [UInt64: Bool] = [:]
    private var nextSequence: UInt64 = 0
    private var blockedTotal: Duration = .zero
    /// Since when a blocker has held the queue; an `InstantOffset`, of fixed size, because this
    /// is read on every admission and release, where an optional `ContinuousClock.Instant` (sized
    /// only at run time) goes through its metadata.
    private var blockedSince: InstantOffset?
    var statusWaiters: [StatusWaiter] = []

    init(cap: Int, agingInterval: Duration?, clock: any TimeSource,
         onAdmit: (@Sendable (QueueTicket, RequestPriority) -> Void)?) {
        self.cap = cap
        self.agingInterval = agingInterval
        self.clock = clock
        self.onAdmit = onAdmit
    }

    var status: PriorityRequestQueue.Status {
        var waiting: [RequestPriority: Int] = [:]
        for priority in RequestPriority.allCases { waiting[priority] = waitingCounts[priority.rawValue] }
        return PriorityRequestQueue.Status(running: running, blockerRunning: runningBlocker != nil, waiting: waiting)
    }

    private var isBlocked: Bool { runningBlocker != nil || waitingCounts[Self.blockerLane] > 0 }

    /// A request arrives: its ticket when it may go at once, and its sequence number either way.
    mutating func arrive(_ context: RequestContext) -> (QueueTicket?, UInt64, Wakes) {
        nextSequence += 1
        let sequence = nextSequence
        let priority = context.priority
        let free = priority == .blocker ? (runningBlocker == nil && waitingCounts[Self.blockerLane] == 0)
                                        : (!isBlocked && running < cap)
        guard free else { return (nil, sequence, Wakes()) }
        let ticket = admit(sequence, id: context.id, priority: priority, heldByBlocker: .zero)
        var wakes = Wakes()
        notifyStatusWaiters(&wakes)
        return (ticket, sequence, wakes)
    }

    /// The request waits for its turn.
    mutating func wait(_ sequence: UInt64, context: RequestContext,
                       continuation: CheckedContinuation<QueueTicket, any Error>) -> Wakes {
        let priority = context.priority
        waiters[sequence] = Waiter(id: context.id, priority: priority, enqueuedAt: clock.now,
                                   blockedAtEnqueue: blockedNow(), continuation: continuation)
        lanes[priority.rawValue].append(sequence)
        waitingCounts[priority.rawValue] += 1
        return dispatch()
    }

    /// A waiter cancelled before admission leaves the queue.
    mutating func leave(_ sequence: UInt64) -> Wakes {
        guard let waiter = waiters.removeValue(forKey: sequence) else { return Wakes() }
        waitingCounts[waiter.priority.rawValue] -= 1
        var wakes = dispatch()
        wakes.cancelled.append(waiter.continuation)
        return wakes
    }

    /// A request ended: frees its slot (or ends its blocker).
    mutating func finish(_ ticket: QueueTicket) -> Wakes {
        guard let isBlocker = admitted.removeValue(forKey: ticket.sequence) else { return Wakes() }
        if isBlocker {
            if runningBlocker == ticket.sequence { runningBlocker = nil }
        } else {
            running -= 1
        }
        return dispatch()
    }

    /// Admits whatever may go now: the next blocker if none runs; otherwise, when no blocker is
    /// active, the most urgent waiters up to the cap.
    private mutating func dispatch() -> Wakes {
        var wakes = Wakes()
        if runningBlocker == nil, let sequence = popLive(Self.blockerLane) {
            admitWaiter(sequence, &wakes)
        }
        updateBlockedTime()
        if !isBlocked {
            while running < cap, let sequence = popMostUrgent() {
                admitWaiter(sequence, &wakes)
            }
        }
        notifyStatusWaiters(&wakes)
        return wakes
    }

    private mutating func admitWaiter(_ sequence: UInt64, _ wakes: inout Wakes) {
        guard let waiter = waiters.removeValue(forKey: sequence) else { return }
        waitingCounts[waiter.priority.rawValue] -= 1
        let held = blockedNow() - waiter.blockedAtEnqueue
        let ticket = admit(sequence, id: waiter.id, priority: waiter.priority, heldByBlocker: held)
        wakes.admitted.append((waiter.continuation, ticket))
    }

    private mutating func admit(_ sequence: UInt64, id: RequestID, priority: RequestPriority, heldByBlocker: Duration)
        -> QueueTicket
    {
        let isBlocker = priority == .blocker
        admitted[sequence] = isBlocker
        if isBlocker { runningBlocker = sequence } else { running += 1 }
        updateBlockedTime()
        let ticket = QueueTicket(id: id, sequence: sequence, heldByBlocker: max(.zero, heldByBlocker))
        onAdmit?(ticket, priority)
        return ticket
    }

    /// The front waiter of the lane still waiting, removed from the lane.
    private mutating func popLive(_ lane: Int) -> UInt64? {
        while let sequence = lanes[lane].first {
            lanes[lane].removeFirst()
            if waiters[sequence] != nil { return sequence }
        }
        return nil
    }

    /// The front waiter of the lane still waiting, left in place.
    private mutating func liveFront(_ lane: Int) -> UInt64? {
        while let sequence = lanes[lane].first {
            if waiters[sequence] != nil { return sequence }
            lanes[lane].removeFirst()
        }
        return nil
    }

    /// Among the fronts of the non-blocker lanes (each the oldest of its priority), the one with
    /// the highest aged priority; on a tie the one that arrived first.
    private mutating func popMostUrgent() -> UInt64? {
        // The clock is read once, and only when someone waits (most releases find nobody).
        var now: ContinuousClock.Instant?
        var best: (lane: Int, urgency: Int, sequence: UInt64)?
        for lane in 0..<Self.blockerLane where waitingCounts[lane] > 0 {
            guard let sequence = liveFront(lane), let waiter = waiters[sequence] else { continue }
            var urgency = lane
            if let agingInterval {
                let instant = now ?? clock.now
                now = instant
                let steps = Int(min(Double(RequestPriority.veryHigh.rawValue),
                                    max(0, ((instant - waiter.enqueuedAt) / agingInterval).rounded(.down))))
                urgency = min(RequestPriority.veryHigh.rawValue, lane + steps)
            }
            if let current = best,
               current.urgency > urgency || (current.urgency == urgency && current.sequence < sequence) {
                continue
            }
            best = (lane, urgency, sequence)
        }
        guard let best else { return nil }
        lanes[best.lane].removeFirst()
        return best.sequence
    }

    // MARK: - Blocker-held time

    private func blockedNow() -> Duration {
        blockedTotal + (blockedSince.map { clock.now - $0.instant } ?? .zero)
    }

    private mutating func updateBlockedTime() {
        if isBlocked {
            if blockedSince == nil { blockedSince = InstantOffset(clock.now) }
        } else if let since = blockedSince {
            blockedTotal += clock.now - since.instant
            blockedSince = nil
        }
    }

    private mutating func notifyStatusWaiters(_ wakes: inout Wakes) {
        guard !statusWaiters.isEmpty else { return }
        let current = status
        var remaining: [StatusWaiter] = []
        for waiter in statusWaiters {
            if waiter.condition(current) { wakes.statusWaiters.append(waiter.continuation) } else { remaining.append(waiter) }
        }
        statusWaiters = remaining
    }
}
