@testable import Gateway
import Testing

/// A request's task removes itself when it ends, which may come before its starter registers
/// it; `invalidate()` cancels what is still running, once.
@Suite struct InFlightRequestsTests {
    /// A task standing in for a request: it runs until it is cancelled.
    private func request() -> Task<Delivery, any Error> {
        Task {
            while !Task.isCancelled { await Task.yield() }
            throw CancellationError()
        }
    }

    @Test func aTaskThatEndedBeforeItWasRegisteredIsNotKept() async {
        let requests = InFlightRequests()
        let ended = request()
        requests.remove(1)
        #expect(requests.register(1, ended))
        #expect(requests.count == 0)
        let running = request()
        #expect(requests.register(2, running))
        #expect(requests.count == 1)
        requests.remove(2)
        #expect(requests.count == 0)
        requests.invalidate()
        // Neither was registered any more, so invalidation cancelled neither.
        #expect(!ended.isCancelled && !running.isCancelled)
        ended.cancel()
        running.cancel()
        _ = try? await ended.value
        _ = try? await running.value
    }

    @Test func aTaskThatEndedBeforeItsRegistrationIsLeftAloneAfterInvalidationToo() async {
        let requests = InFlightRequests()
        let ended = request()
        requests.remove(1)
        requests.invalidate()
        // It ended before invalidation reached it: accepted, not cancelled, not kept.
        #expect(requests.register(1, ended))
        #expect(!ended.isCancelled)
        #expect(requests.count == 0)
        // The mark went with the registration: the same number now counts as a new request.
        let late = request()
        #expect(!requests.register(1, late))
        #expect(late.isCancelled)
        ended.cancel()
        _ = try? await ended.value
        _ = try? await late.value
    }

    @Test func invalidatingCancelsTheRunningTasksAndRefusesNewOnes() async {
        let requests = InFlightRequests()
        let running = request()
        requests.register(1, running)
        requests.invalidate()
        #expect(running.isCancelled)
        _ = try? await running.value
        requests.remove(1)
        #expect(requests.count == 0)
        let late = request()
        #expect(!requests.register(2, late))
        #expect(late.isCancelled)
        _ = try? await late.value
    }
}
