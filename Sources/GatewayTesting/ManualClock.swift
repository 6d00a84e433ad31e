import Foundation
import Gateway

/// A `TimeSource` that a test moves by hand: retry back-off, `Retry-After` and queue aging
/// without real waiting.
///
/// ```swift
/// let clock = ManualClock()
/// let provider = Provider(baseURL: api, transport: stub) { $0.clock = clock }
/// let task = Task { try await provider.send(Endpoint<Empty>.get("flaky")) }
/// await clock.waitForSleeps(1)        // the pipeline is now waiting to retry
/// clock.advance(by: .seconds(1))      // … and now it retries
/// ```
/// `now` is the real monotonic time plus everything `advance` added, so deadlines computed
/// from it stay comparable with the real clock; `date` starts at `date` given to `init` and
/// moves only with `advance`. With `advancesOnSleep`, every sleep returns at once after
/// moving the clock by its duration. Every requested sleep is recorded in `sleeps`.
public final class ManualClock: TimeSource {
    private struct Sleeper {
        let id: UInt64
        let wake: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var offset: Duration = .zero
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var sleeps: [Duration] = []
        var sleepWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())
    private let startDate: Date
    /// Whether a sleep moves the clock and returns at once.
    public let advancesOnSleep: Bool

    /// Creates a clock.
    ///
    /// - Parameters:
    ///   - date: the wall-clock date it starts at (whole seconds keep HTTP dates exact).
    ///   - advancesOnSleep: whether each sleep moves the clock by its duration and returns at once.
    public init(date: Date = Date(timeIntervalSince1970: 1_750_000_000), advancesOnSleep: Bool = false) {
        startDate = date
        self.advancesOnSleep = advancesOnSleep
    }

    /// The real monotonic time plus the time advanced.
    public var now: ContinuousClock.Instant { ContinuousClock.now + state.withLock { $0.offset } }

    /// The start date plus the time advanced.
    public var date: Date { startDate.addingTimeInterval(state.withLock { $0.offset }.timeInterval) }

    /// The time advanced so far.
    public var advanced: Duration { state.withLock { $0.offset } }

    /// Every sleep requested, in order.
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// How many tasks sleep now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Sleeps until the clock has been advanced by `duration` (or at once with `advancesOnSleep`).
    ///
    /// - Throws: `CancellationError` as soon as the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        if advancesOnSleep {
            let arrived = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.sleeps.append(duration)
                state.offset += max(duration, .zero)
                return Self.arrivals(&state)
            }
            for waiter in arrived { waiter.resume() }
            await Task.yield()
            try Task.checkCancellation()
            return
        }
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (immediate, arrived) = state.withLock { state -> (Bool?, [CheckedContinuation<Void, Never>]) in
                    state.sleeps.append(duration)
                    let arrived = Self.arrivals(&state)
                    if Task.isCancelled { return (false, arrived) }
                    if duration <= .zero { return (true, arrived) }
                    state.sleepers.append(Sleeper(id: id, wake: state.offset + duration, continuation: continuation))
                    return (nil, arrived)
                }
                for waiter in arrived { waiter.resume() }
                switch immediate {
                case true?: continuation.resume()
                case false?: continuation.resume(throwing: CancellationError())
                case nil: break
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward and wakes every sleeper whose time has come.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.offset += max(duration, .zero)
            let offset = state.offset
            let due = state.sleepers.filter { $0.wake <= offset }
            state.sleepers.removeAll { $0.wake <= offset }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` sleeps have been requested in all.
    public func waitForSleeps(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleeps.count >= count { return true }
                state.sleepWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private static func arrivals(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleeps.count
        let ready = state.sleepWaiters.filter { $0.count <= count }.map(\.continuation)
        state.sleepWaiters.removeAll { $0.count <= count }
        return ready
    }
}

extension Duration {
    fileprivate var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
