import Gateway
import Testing
@testable import GatewayCLI

/// The harness `bench overhead` and `bench pipeline` send their requests with: every request is
/// sent exactly once, with as many in flight as asked and never more.
@Suite struct BenchDriveTests {
    @Test(.timeLimit(.minutes(1)), arguments: [(1_001, 64), (5, 64), (64, 64), (1, 1), (10, 3), (7, 1)])
    func sendsEachRequestOnceWithTheRequestsInFlightAsked(count: Int, concurrency: Int) async throws {
        // The first `min(count, concurrency)` requests wait for one another: a harness that kept
        // fewer in flight would never open the gate (and fail at the time limit).
        let client = GatedCountingClient(gateAt: min(count, concurrency))
        try await PipelineBenchmark.drive(client, count: count, concurrency: concurrency)
        let totals = client.totals
        #expect(totals.sent == count)
        #expect(totals.peak == min(count, concurrency))
    }
}

/// Counts the requests sent and the most in flight at once; the first requests are held until
/// `gateAt` of them are in flight together.
private final class GatedCountingClient: BenchClient {
    private struct State {
        var sent = 0
        var inFlight = 0
        var peak = 0
        var open = false
        var held: [CheckedContinuation<Void, Never>] = []
    }

    private let gateAt: Int
    private let state = Locked(State())

    init(gateAt: Int) { self.gateAt = gateAt }

    var totals: (sent: Int, peak: Int) { state.withLock { ($0.sent, $0.peak) } }

    func fetch() async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumed: [CheckedContinuation<Void, Never>] = state.withLock { state in
                state.sent += 1
                state.inFlight += 1
                state.peak = max(state.peak, state.inFlight)
                if !state.open, state.inFlight >= gateAt { state.open = true }
                guard state.open else {
                    state.held.append(continuation)
                    return []
                }
                defer { state.held = [] }
                return state.held + [continuation]
            }
            for waiting in resumed { waiting.resume() }
        }
        state.withLock { $0.inFlight -= 1 }
    }

    func close() {}
}
