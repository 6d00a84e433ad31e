/// The request queue that orders by priority: one FIFO per priority, a concurrency cap, a
/// blocker gate and aging.
///
/// - **Order.** The most urgent waiting request goes first; within one priority, the one that
///   arrived first. A request that has waited gains one level of urgency per `agingInterval`
///   (never more than `veryHigh`), so a `low` request is not starved under steady `high` load.
/// - **Cap.** At most `maxConcurrentRequests` requests (default 6) are between admission and
///   `finished` at once. Blockers are not counted.
/// - **Blockers.** While a `blocker` is queued or running, nothing else is dispatched; requests
///   already running go on. Blockers run one at a time in the order they arrived, whatever the
///   cap, so a token refresh runs even while every slot is taken by requests that wait for it.
/// - **Cancellation.** A task cancelled while it waits leaves at once with `CancellationError`
///   (it never reaches the encode stage); `finished` frees a slot at once and may be called
///   more than once for the same ticket (only the first call counts).
///
/// ```swift
/// let provider = Provider(baseURL: api) { config in
///     config.queue = PriorityRequestQueue(maxConcurrentRequests: 4)
/// }
/// ```
/// One queue per provider: a queue shared by several providers caps them together.
public actor PriorityRequestQueue: RequestQueue {
    /// What the queue holds at one moment.
    public struct Status: Sendable, Hashable, CustomStringConvertible {
        /// Requests admitted and not yet finished, blockers excluded.
        public var running: Int
        /// Whether a blocker is running.
        public var blockerRunning: Bool
        /// Requests waiting, by priority (blockers under `.blocker`).
        public var waiting: [RequestPriority: Int]

        /// Every waiting request.
        public var totalWaiting: Int { waiting.values.reduce(0, +) }

        /// `running 4, blocker no, waiting low 1 medium 3 …`.
        public var description: String {
            let lanes = RequestPriority.allCases.map { "\($0) \(waiting[$0] ?? 0)" }.joined(separator: " ")
            return "running \(running), blocker \(blockerRunning ? "yes" : "no"), waiting \(lanes)"
        }
    }

    private struct Waiter {
        let id: RequestID
        let priority: RequestPriority
        let enqueuedAt: ContinuousClock.Instant
        let blockedAtEnqueue: Duration
        let continuation: CheckedContinuation<QueueTicket, any Error>
    }

    /// The most requests running at once, blockers excluded (at least 1).
    public nonisolated let maxConcurrentRequests: Int
    /// How long a request waits to gain one level of urgency; `nil` turns aging off.
    public nonisolated let agingInterval: Duration?

    private let clock: any TimeSource
    private let onAdmit: (@Sendable (QueueTicket, RequestPriority) -> Void)?

    // Invariant after every change: a blocker is active (running or waiting), or `running` is
    // at the cap, or nothing but blockers waits. So a request that finds no blocker and a free
    // slot can be admitted without waiting.
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
    private var blockedSince: ContinuousClock.Instant?
    private var statusWaiters: [(condition: @Sendable (Status) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []

    /// Creates a queue.
    ///
    /// - Parameters:
    ///   - maxConcurrentRequests: the most requests running at once, blockers excluded (values
    ///     below 1 count as 1); 6 by default, like the connections `URLSession` opens per host.
    ///   - agingInterval: how long a waiting request takes to gain one level of urgency; 5 s by
    ///     default, `nil` for none.
    ///   - clock: where aging and blocker-held time read the time.
    public init(
        maxConcurrentRequests: Int = 6, agingInterval: Duration? = .seconds(5), clock: any TimeSource = .system
    ) {
        self.init(maxConcurrentRequests: maxConcurrentRequests, agingInterval: agingInterval, clock: clock,
                  onAdmit: nil)
    }

    /// Creates a queue that reports each admission, in order, while it holds the queue's isolation.
    package init(
        maxConcurrentRequests: Int = 6, agingInterval: Duration? = .seconds(5), clock: any TimeSource = .system,
        onAdmit: (@Sendable (QueueTicket, RequestPriority) -> Void)?
    ) {
        self.maxConcurrentRequests = max(1, maxConcurrentRequests)
        self.agingInterval = agingInterval.flatMap { $0 > .zero ? $0 : nil }
        self.clock = clock
        self.onAdmit = onAdmit
    }

    /// What the queue holds now.
    public var status: Status {
        var waiting: [RequestPriority: Int] = [:]
        for priority in RequestPriority.allCases { waiting[priority] = waitingCounts[priority.rawValue] }
        return Status(running: running, blockerRunning: runningBlocker != nil, waiting: waiting)
    }

    /// Waits until the request may proceed: at once when no blocker is active and a slot is free.
    ///
    /// - Returns: the ticket to hand to `finished(_:)`, with the time held by blockers.
    /// - Throws: `CancellationError` when the task is cancelled before it is admitted.
    public func enqueue(_ context: RequestContext) async throws -> QueueTicket {
        try Task.checkCancellation()
        nextSequence += 1
        let sequence = nextSequence
        let priority = context.priority
        if priority == .blocker ? (runningBlocker == nil && waitingCounts[Self.blockerLane] == 0)
                                : (!isBlocked && running < maxConcurrentRequests) {
            let ticket = admit(sequence, id: context.id, priority: priority, heldByBlocker: .zero)
            notifyStatusWaiters()
            return ticket
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<QueueTicket, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                waiters[sequence] = Waiter(
                    id: context.id, priority: priority, enqueuedAt: clock.now, blockedAtEnqueue: blockedNow(),
                    continuation: continuation)
                lanes[priority.rawValue].append(sequence)
                waitingCounts[priority.rawValue] += 1
                dispatch()
            }
        } onCancel: {
            Task { await self.leave(sequence) }
        }
    }

    /// Frees the ticket's slot (or ends its blocker) and dispatches what may go next. Calls for
    /// a ticket already finished, or from another queue, change nothing.
    public func finished(_ ticket: QueueTicket) async {
        guard let isBlocker = admitted.removeValue(forKey: ticket.sequence) else { return }
        if isBlocker {
            if runningBlocker == ticket.sequence { runningBlocker = nil }
        } else {
            running -= 1
        }
        dispatch()
    }

    /// Returns once `condition` holds for the queue's status (checked now and after every change).
    package func waitUntil(_ condition: @escaping @Sendable (Status) -> Bool) async {
        if condition(status) { return }
        await withCheckedContinuation { statusWaiters.append((condition, $0)) }
    }

    // MARK: - Dispatch

    private static let blockerLane = RequestPriority.blocker.rawValue

    private var isBlocked: Bool { runningBlocker != nil || waitingCounts[Self.blockerLane] > 0 }

    /// A waiter cancelled before admission leaves the queue.
    private func leave(_ sequence: UInt64) {
        guard let waiter = waiters.removeValue(forKey: sequence) else { return }
        waitingCounts[waiter.priority.rawValue] -= 1
        waiter.continuation.resume(throwing: CancellationError())
        dispatch()
    }

    /// Admits whatever may go now: the next blocker if none runs; otherwise, when no blocker is
    /// active, the most urgent waiters up to the cap.
    private func dispatch() {
        if runningBlocker == nil, let sequence = popLive(Self.blockerLane) {
            resumeWaiter(sequence)
        }
        updateBlockedTime()
        if !isBlocked {
            while running < maxConcurrentRequests, let sequence = popMostUrgent() {
                resumeWaiter(sequence)
            }
        }
        notifyStatusWaiters()
    }

    private func resumeWaiter(_ sequence: UInt64) {
        guard let waiter = waiters.removeValue(forKey: sequence) else { return }
        waitingCounts[waiter.priority.rawValue] -= 1
        let held = blockedNow() - waiter.blockedAtEnqueue
        waiter.continuation.resume(returning: admit(sequence, id: waiter.id, priority: waiter.priority,
                                                    heldByBlocker: held))
    }

    private func admit(_ sequence: UInt64, id: RequestID, priority: RequestPriority, heldByBlocker: Duration)
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
    private func popLive(_ lane: Int) -> UInt64? {
        while let sequence = lanes[lane].first {
            lanes[lane].removeFirst()
            if waiters[sequence] != nil { return sequence }
        }
        return nil
    }

    /// The front waiter of the lane still waiting, left in place.
    private func liveFront(_ lane: Int) -> UInt64? {
        while let sequence = lanes[lane].first {
            if waiters[sequence] != nil { return sequence }
            lanes[lane].removeFirst()
        }
        return nil
    }

    /// Among the fronts of the non-blocker lanes (each the oldest of its priority), the one with
    /// the highest aged priority; on a tie the one that arrived first.
    private func popMostUrgent() -> UInt64? {
        let now = agingInterval == nil ? nil : clock.now
        var best: (lane: Int, urgency: Int, sequence: UInt64)?
        for lane in 0..<Self.blockerLane where waitingCounts[lane] > 0 {
            guard let sequence = liveFront(lane), let waiter = waiters[sequence] else { continue }
            var urgency = lane
            if let now, let agingInterval {
                let steps = Int(min(Double(RequestPriority.veryHigh.rawValue),
                                    max(0, ((now - waiter.enqueuedAt) / agingInterval).rounded(.down))))
                urgency = min(RequestPriority.veryHigh.rawValue, lane + steps)
            }
            if let current = best, current.urgency > urgency || (current.urgency == urgency && current.sequence < sequence) {
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
        blockedTotal + (blockedSince.map { clock.now - $0 } ?? .zero)
    }

    private func updateBlockedTime() {
        if isBlocked {
            if blockedSince == nil { blockedSince = clock.now }
        } else if let since = blockedSince {
            blockedTotal += clock.now - since
            blockedSince = nil
        }
    }

    private func notifyStatusWaiters() {
        guard !statusWaiters.isEmpty else { return }
        let current = status
        var remaining: [(condition: @Sendable (Status) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
        for waiter in statusWaiters {
            if waiter.condition(current) { waiter.continuation.resume() } else { remaining.append(waiter) }
        }
        statusWaiters = remaining
    }
}

/// A first-in, first-out list of sequence numbers with O(1) removal from the front.
struct SequenceFIFO {
    private var items: [UInt64] = []
    private var head = 0

    var first: UInt64? { head < items.count ? items[head] : nil }

    mutating func append(_ item: UInt64) { items.append(item) }

    mutating func removeFirst() {
        guard head < items.count else { return }
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: items.count <= 1024)
            head = 0
        } else if head >= 1024, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
    }
}
