import Gateway

/// A gate that tasks wait at until a test opens it: synchronisation without sleeps.
///
/// ```swift
/// let gate = Gate()
/// stub.on(.get, "slow", reply: .status(200).held(by: gate))
/// let task = Task { try await provider.send(Endpoint<Empty>.get("slow")) }
/// await gate.waitForArrivals(1)   // the request is now at the gate
/// gate.open()
/// ```
/// Once open, a gate stays open. A task cancelled while waiting leaves with `CancellationError`.
public final class Gate: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var isOpen = false
        var nextID: UInt64 = 0
        var waiters: [Waiter] = []
        var arrivals = 0
        var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    /// Creates a closed gate.
    public init() {}

    /// Whether the gate has been opened.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// How many tasks have arrived at the gate so far (waiting or let through).
    public var arrivals: Int { state.withLock { $0.arrivals } }

    /// Opens the gate: every waiting task and every later one passes.
    public func open() {
        let waiters = state.withLock { state -> [Waiter] in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume() }
    }

    /// Waits until the gate is open.
    ///
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    public func wait() async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, arrived) = state.withLock { state -> (Bool?, [CheckedContinuation<Void, Never>]) in
                    state.arrivals += 1
                    let arrived = state.arrivalWaiters.filter { $0.count <= state.arrivals }.map(\.continuation)
                    state.arrivalWaiters.removeAll { $0.count <= state.arrivals }
                    if state.isOpen { return (true, arrived) }
                    if Task.isCancelled { return (false, arrived) }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return (nil, arrived)
                }
                for waiter in arrived { waiter.resume() }
                switch resumeNow {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Returns once at least `count` tasks have arrived at the gate.
    public func waitForArrivals(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.arrivals >= count { return true }
                state.arrivalWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
