@testable import Gateway
import Testing

/// A request's task removes itself when it ends, which may come before its starter registers
/// it; `invalidate()` cancels what is still running, once.
@Suite struct InFlightRequestsTests {
    @Test func aTaskThatEndedBeforeItWasRegisteredIsNotKept() async {
        let requests = InFlightRequests()
        let ended = Task<Void, Never> {}
        requests.remove(1)
        #expect(requests.register(1, ended))
        #expect(requests.count == 0)
        let running = Task<Void, Never> {}
        #expect(requests.register(2, running))
        #expect(requests.count == 1)
        requests.remove(2)
        #expect(requests.count == 0)
        requests.invalidate()
        #expect(!ended.isCancelled && !running.isCancelled)
    }

    @Test func invalidatingCancelsTheRunningTasksAndRefusesNewOnes() async {
        let requests = InFlightRequests()
        let running = Task<Void, Never> { while !Task.isCancelled { await Task.yield() } }
        requests.register(1, running)
        requests.invalidate()
        #expect(running.isCancelled)
        await running.value
        requests.remove(1)
        #expect(requests.count == 0)
        let late = Task<Void, Never> { while !Task.isCancelled { await Task.yield() } }
        #expect(!requests.register(2, late))
        #expect(late.isCancelled)
        await late.value
    }
}
