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
///
/// The state sits behind one lock rather than in an actor: a request that finds a free slot is
/// admitted and released without suspending or changing threads, which is most of what the queue
/// costs on a fast network.
public final class PriorityRequestQueue: RequestQueue {
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

    /// The most requests running at once, blockers excluded (at least 1).
    public let maxConcurrentRequests: Int
    /// How long a request waits to gain one level of urgency; `nil` turns aging off.
    public let agingInterval: Duration?

    private let state: Locked<QueueState>

    /// Creates a queue.
    ///
    /// - Parameters:
    ///   - maxConcurrentRequests: the most requests running at once, blockers excluded (values
    ///     below 1 count as 1); 6 by default, like the connections `URLSession` opens per host.
    ///   - agingInterval: how long a waiting request takes to gain one level of urgency; 5 s by
    ///     default, `nil` for none.
    ///   - clock: where aging and blocker-held time read the time.
    public convenience init(
        maxConcurrentRequests: Int = 6, agingInterval: Duration? = .seconds(5), clock: any TimeSource = .system
    ) {
        self.init(maxConcurrentRequests: maxConcurrentRequests, agingInterval: agingInterval, clock: clock,
                  onAdmit: nil)
    }

    /// Creates a queue that reports each admission, in order, while it holds the queue's lock
    /// (`onAdmit` must not call the queue).
    package init(
        maxConcurrentRequests: Int = 6, agingInterval: Duration? = .seconds(5), clock: any TimeSource = .system,
        onAdmit: (@Sendable (QueueTicket, RequestPriority) -> Void)?
    ) {
        self.maxConcurrentRequests = max(1, maxConcurrentRequests)
        self.agingInterval = agingInterval.flatMap { $0 > .zero ? $0 : nil }
        state = Locked(QueueState(cap: self.maxConcurrentRequests, agingInterval: self.agingInterval, clock: clock,
                                  onAdmit: onAdmit))
    }

    /// What the queue holds now.
    public var status: Status { state.withLock { $0.status } }

    /// Waits until the request may proceed: at once, without suspending, when no blocker is
    /// active and a slot is free.
    ///
    /// - Returns: the ticket to hand to `finished(_:)`, with the time held by blockers.
    /// - Throws: `CancellationError` when the task is cancelled before it is admitted.
    public func enqueue(_ context: RequestContext) async throws -> QueueTicket {
        try Task.checkCancellation()
        let (ticket, sequence, wakes) = state.withLock { $0.arrive(context) }
        wakes.resume()
        if let ticket { return ticket }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<QueueTicket, any Error>) in
                // Cancellation sets its flag before it runs the handler:
                // checked under the lock, either the handler finds the waiter or the waiter
                // sees the flag.
                let wakes = state.withLock { state -> QueueState.Wakes in
                    if Task.isCancelled {
                        return QueueState.Wakes(cancelled: [continuation])
                    }
                    return state.wait(sequence, context: context, continuation: continuation)
                }
                wakes.resume()
            }
        } onCancel: { [state] in
            state.withLock { $0.leave(sequence) }.resume()
        }
    }

    /// Frees the ticket's slot (or ends its blocker) and dispatches what may go next. Calls for
    /// a ticket already finished, or from another queue, change nothing.
    public func finished(_ ticket: QueueTicket) async {
        finishNow(ticket)
    }

    /// `finished(_:)` without suspending.
    public func cancelled(_ ticket: QueueTicket) {
        finishNow(ticket)
    }

    /// `finished(_:)` without suspending.
    func finishNow(_ ticket: QueueTicket) {
        state.withLock { $0.finish(ticket) }.resume()
    }

    /// Returns once `condition` holds for the queue's status (checked now and after every change).
    package func waitUntil(_ condition: @escaping @Sendable (Status) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let holds = state.withLock { state -> Bool in
                if condition(state.status) { return true }
                state.statusWaiters.append((condition, continuation))
                return false
            }
            if holds { continuation.resume() }
        }
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
