import Foundation
@testable import Gateway
import GatewayTesting
import Testing

@Suite struct PriorityRequestQueueTests {
    @Test func aCapOfFourNeverHasMoreThanFourOfAHundredMixedRequestsInFlight() async throws {
        let log = AdmissionLog()
        let queue = PriorityRequestQueue(maxConcurrentRequests: 4, agingInterval: nil, onAdmit: log.record)
        let gate = Gate()
        let inFlight = Locked((current: 0, most: 0))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 1...100 {
                let priority = [RequestPriority.low, .medium, .high, .veryHigh][number % 4]
                group.addTask {
                    let ticket = try await queue.enqueue(queueContext(UInt64(number), priority))
                    inFlight.withLock {
                        $0.current += 1
                        $0.most = max($0.most, $0.current)
                    }
                    try await gate.wait()
                    for _ in 0..<(number % 5) { await Task.yield() }
                    inFlight.withLock { $0.current -= 1 }
                    await queue.finished(ticket)
                }
            }
            await queue.waitUntil { $0.running == 4 && $0.totalWaiting == 96 }
            #expect(inFlight.value.current <= 4)
            gate.open()
            try await group.waitForAll()
        }
        #expect(inFlight.value.most == 4)
        #expect(log.ids.count == 100)
        #expect(Set(log.ids).count == 100)
        let status = queue.status
        #expect(status.running == 0 && status.totalWaiting == 0)
    }

    @Test func aHighRequestGoesBeforeAnEarlierLowOne() async throws {
        let log = AdmissionLog()
        let queue = PriorityRequestQueue(maxConcurrentRequests: 1, agingInterval: nil, onAdmit: log.record)
        let first = try await queue.enqueue(queueContext(1, .medium))
        let low = await queue.enqueueWaiting(2, .low)
        let high = await queue.enqueueWaiting(3, .high)
        await queue.finished(first)
        await queue.finished(try await high.value)
        await queue.finished(try await low.value)
        #expect(log.ids == [1, 3, 2])
    }

    @Test func requestsGoByPriorityAndFirstInFirstOutWithinOne() async throws {
        let log = AdmissionLog()
        let queue = PriorityRequestQueue(maxConcurrentRequests: 1, agingInterval: nil, onAdmit: log.record)
        let holder = try await queue.enqueue(queueContext(0, .medium))
        var generator = SplitMix(seed: 7)
        var expected: [(UInt64, RequestPriority)] = []
        var tasks: [Task<QueueTicket, any Error>] = []
        for number in 1...40 {
            let priority = [RequestPriority.low, .medium, .high, .veryHigh][Int(generator.next() % 4)]
            expected.append((UInt64(number), priority))
            tasks.append(await queue.enqueueWaiting(UInt64(number), priority))
        }
        await queue.finished(holder)
        for step in 1...40 {
            await log.waitFor(step + 1)
            await queue.finished(log.tickets[step])
        }
        for task in tasks { _ = try await task.value }
        let order = expected.enumerated().sorted { lhs, rhs in
            lhs.element.1 != rhs.element.1 ? lhs.element.1 > rhs.element.1 : lhs.offset < rhs.offset
        }.map(\.element.0)
        #expect(log.ids == [0] + order)
    }

    @Test func aBlockerHoldsEveryoneElseAndBlockersKeepTheirOrder() async throws {
        let log = AdmissionLog()
        let queue = PriorityRequestQueue(maxConcurrentRequests: 2, agingInterval: nil, onAdmit: log.record)
        let m1 = try await queue.enqueue(queueContext(1, .medium))
        let m2 = try await queue.enqueue(queueContext(2, .medium))
        // Not counted against the cap: admitted although both slots are taken.
        let b1 = try await queue.enqueue(queueContext(3, .blocker))
        let h4 = await queue.enqueueWaiting(4, .high)
        let m5 = await queue.enqueueWaiting(5, .medium)
        let b2 = await queue.enqueueWaiting(6, .blocker)
        let b3 = await queue.enqueueWaiting(7, .blocker)
        await queue.finished(m1)
        #expect(queue.status.running == 1)
        #expect(log.ids == [1, 2, 3])
        await queue.finished(b1)
        let second = try await b2.value
        #expect(log.ids == [1, 2, 3, 6])
        await queue.finished(second)
        let third = try await b3.value
        #expect(log.ids == [1, 2, 3, 6, 7])
        await queue.finished(third)
        let high = try await h4.value
        #expect(log.ids == [1, 2, 3, 6, 7, 4])
        await queue.finished(m2)
        let medium = try await m5.value
        #expect(log.ids == [1, 2, 3, 6, 7, 4, 5])
        await queue.finished(high)
        await queue.finished(medium)
        #expect(queue.status == PriorityRequestQueue.Status(
            running: 0, blockerRunning: false, waiting: Dictionary(uniqueKeysWithValues: RequestPriority.allCases.map { ($0, 0) })))
    }

    @Test func aTicketCarriesTheTimeItWasHeldByABlocker() async throws {
        let clock = ManualClock()
        let queue = PriorityRequestQueue(maxConcurrentRequests: 4, clock: clock)
        let started = ContinuousClock.now
        let blocker = try await queue.enqueue(queueContext(1, .blocker))
        let waiting = await queue.enqueueWaiting(2, .medium)
        clock.advance(by: .seconds(3))
        await queue.finished(blocker)
        let ticket = try await waiting.value
        // The manual clock also moves with real time, and a loaded machine may let seconds of it
        // pass while the tasks wait for a thread: the bound is the 3 s advanced plus what passed.
        let realTime = ContinuousClock.now - started
        #expect(ticket.heldByBlocker >= .seconds(3))
        #expect(ticket.heldByBlocker <= .seconds(3) + realTime)
        #expect(blocker.heldByBlocker == .zero)
    }

    // The manual clock also moves with real time, so the aging interval is ten minutes: a loaded
    // machine never lets that much pass between the two enqueues and the admission.
    @Test(arguments: [(Duration.zero, UInt64(3)), (.seconds(1_800), UInt64(2))])
    func aLowRequestAgesPastFreshHighOnes(waited: Duration, first: UInt64) async throws {
        let clock = ManualClock()
        let log = AdmissionLog()
        let queue = PriorityRequestQueue(maxConcurrentRequests: 1, agingInterval: .seconds(600), clock: clock,
                                         onAdmit: log.record)
        let holder = try await queue.enqueue(queueContext(1, .medium))
        let low = await queue.enqueueWaiting(2, .low)
        clock.advance(by: waited)
        let high = await queue.enqueueWaiting(3, .high)
        await queue.finished(holder)
        await log.waitFor(2)
        #expect(log.ids[1] == first)
        await queue.finished(log.tickets[1])
        await log.waitFor(3)
        await queue.finished(log.tickets[2])
        _ = try await (low.value, high.value)
    }

    @Test func aRequestCancelledWhileQueuedLeavesAtOnceAndFinishedTwiceCountsOnce() async throws {
        let log = AdmissionLog()
        let queue = PriorityRequestQueue(maxConcurrentRequests: 1, agingInterval: nil, onAdmit: log.record)
        let holder = try await queue.enqueue(queueContext(1, .medium))
        let cancelled = await queue.enqueueWaiting(2, .high)
        let next = await queue.enqueueWaiting(3, .low)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        await queue.finished(holder)
        await queue.finished(holder)
        let ticket = try await next.value
        #expect(log.ids == [1, 3])
        #expect(queue.status.running == 1)
        await queue.finished(ticket)
        #expect(queue.status.running == 0)
    }

    @Test func aTaskCancelledBeforeItEnqueuesIsRefused() async throws {
        let queue = PriorityRequestQueue(maxConcurrentRequests: 1)
        let start = Gate()
        let task = Task {
            try? await start.wait()
            return try await queue.enqueue(queueContext(1, .medium))
        }
        task.cancel()
        start.open()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(queue.status.running == 0)
    }
}

/// A small deterministic generator for reproducible test data.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
