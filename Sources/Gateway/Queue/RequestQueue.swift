/// Admission to the network: the pipeline's step 3.
///
/// The pipeline calls `enqueue` before the auth stage and `finished` exactly once for every
/// ticket it received, when the request ends in any way. A queue that holds a request must
/// throw `CancellationError` promptly when the waiting task is cancelled; a request cancelled
/// in the queue never reaches the encode stage.
///
/// Implementing one (a limit of one request at a time):
/// ```swift
/// actor OneAtATime: RequestQueue {
///     private var busy = false
///     private var waiters: [CheckedContinuation<Void, Never>] = []
///     func enqueue(_ context: RequestContext) async throws -> QueueTicket {
///         if busy { await withCheckedContinuation { waiters.append($0) } } else { busy = true }
///         return QueueTicket(id: context.id)
///     }
///     func finished(_ ticket: QueueTicket) async {
///         if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() }
///     }
/// }
/// ```
public protocol RequestQueue: Sendable {
    /// Waits until the request may proceed.
    ///
    /// - Returns: a ticket handed back to `finished` when the request ends.
    /// - Throws: `CancellationError` when cancelled while waiting.
    func enqueue(_ context: RequestContext) async throws -> QueueTicket

    /// Releases the request's place; called exactly once per ticket.
    func finished(_ ticket: QueueTicket) async

    /// Releases the place of a request whose task was cancelled, from its cancellation handler
    /// (synchronous code), instead of `finished`: the place is free before the request has
    /// unwound. The default calls `finished` from a new task.
    func cancelled(_ ticket: QueueTicket)
}

extension RequestQueue {
    /// Calls `finished` from a new task.
    public func cancelled(_ ticket: QueueTicket) {
        Task { await finished(ticket) }
    }
}

/// A request's place in the queue.
public struct QueueTicket: Sendable, Hashable {
    /// The request the ticket belongs to.
    public let id: RequestID
    /// The queue's own number for the admission (unique within one queue, even when several
    /// providers share it).
    public let sequence: UInt64
    /// How long the request was held only because a `blocker` was queued or running.
    public var heldByBlocker: Duration

    /// Creates a ticket.
    ///
    /// - Parameters:
    ///   - id: the request's identity.
    ///   - sequence: the queue's own number for the admission.
    ///   - heldByBlocker: the time the request waited behind blockers.
    public init(id: RequestID, sequence: UInt64 = 0, heldByBlocker: Duration = .zero) {
        self.id = id
        self.sequence = sequence
        self.heldByBlocker = heldByBlocker
    }
}

/// The pass-through queue: every request proceeds at once.
public struct ImmediateQueue: RequestQueue {
    /// Creates the pass-through queue.
    public init() {}
    /// Proceeds at once.
    public func enqueue(_ context: RequestContext) async throws -> QueueTicket { QueueTicket(id: context.id) }
    /// Nothing to release.
    public func finished(_ ticket: QueueTicket) async {}
}

extension RequestQueue where Self == ImmediateQueue {
    /// The pass-through queue: every request proceeds at once.
    public static var immediate: ImmediateQueue { ImmediateQueue() }
}
