import Foundation
import Gateway
import GatewayTestSupport
import Testing

/// `OffPool` keeps heavy and blocking test work off the cooperative pool, and `OnceCache` builds a
/// shared fixture once however many tests ask at once.
@Suite struct OffPoolTests {
    @Test func runRunsTheBodyOnTheLaneAndNothingElseDoes() async throws {
        #expect(!OffPool.isOnLane)
        #expect(await OffPool.run { OffPool.isOnLane })
        #expect(await Task.detached { OffPool.isOnLane }.value == false)
        #expect(!OffPool.isOnLane)
    }

    @Test func runReturnsWhatTheBodyReturnsAndThrowsWhatItThrows() async throws {
        #expect(await OffPool.run { 6 * 7 } == 42)
        let error = await #expect(throws: CocoaError.self) {
            try await OffPool.run { () throws(CocoaError) -> Int in throw CocoaError(.featureUnsupported) }
        }
        #expect(error?.code == .featureUnsupported)
    }

    @Test func childTasksOfTheBodyRunOnTheLaneToo() async throws {
        let places = await OffPool.run {
            await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<4 { group.addTask { OffPool.isOnLane } }
                async let single = OffPool.isOnLane
                return await group.reduce(into: []) { $0.append($1) } + [single]
            }
        }
        #expect(places == [true, true, true, true, true])
    }

    /// Four blocking calls that each wait for all four to arrive: only threads of their own (the
    /// pool has two here, the lane few) let them all arrive.
    @Test func blockingCallsEachGetAThreadOfTheirOwn() async throws {
        let arrivals = BuildCount()
        let passed = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await OffPool.blocking {
                        arrivals.increment()
                        let giveUp = ContinuousClock.now + .seconds(20)
                        while arrivals.value < 4, ContinuousClock.now < giveUp { usleep(1_000) }
                        return arrivals.value == 4 && !OffPool.isOnLane
                    }
                }
            }
            return try await group.reduce(true) { $0 && $1 }
        }
        #expect(passed)
        await #expect(throws: CocoaError.self) {
            try await OffPool.blocking { () throws -> Int in throw CocoaError(.fileNoSuchFile) }
        }
    }

    /// The work runs while this test holds its pool thread without awaiting: its thread needed
    /// no pool thread to start.
    @Test func startedWorkRunsBeforeAnyoneAwaitsItAndHandsBackItsResult() async throws {
        let ran = DispatchSemaphore(value: 0)
        let work = OffPool.start { () -> Int in
            ran.signal()
            return 42
        }
        #expect(ran.wait(timeout: .now() + 20) == .success)
        #expect(try await work.value == 42)
        #expect(try await work.value == 42)
        let failing = OffPool.start { () throws -> Int in throw CocoaError(.fileNoSuchFile) }
        await #expect(throws: CocoaError.self) { try await failing.value }
    }

    @Test func aOnceCacheBuildsEachKeyOnceOnTheLaneForManyAskersAtOnce() async throws {
        let cache = OnceCache<String, Int>()
        let builds = BuildCount()
        let values = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await cache.value(for: index.isMultiple(of: 2) ? "even" : "odd") {
                        builds.increment()
                        return OffPool.isOnLane ? index % 2 : -1
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(builds.value == 2)
        #expect(values.filter { $0 == 0 }.count == 25)
        #expect(values.filter { $0 == 1 }.count == 25)
    }

    @Test func aOnceCacheRemembersAFailedBuild() async throws {
        let cache = OnceCache<Int, Int>()
        let builds = BuildCount()
        for _ in 0..<3 {
            await #expect(throws: CocoaError.self) {
                try await cache.value(for: 1) {
                    builds.increment()
                    throw CocoaError(.fileReadCorruptFile)
                }
            }
        }
        #expect(builds.value == 1)
    }
}

/// Timing that leaves out the runs the system interrupted.
@Suite struct UndisturbedTimingTests {
    @Test func aQuickRunIsMeasuredAtItsLength() {
        var runs = 0
        let elapsed = UndisturbedTiming.measure { runs += 1 }
        #expect(elapsed < .seconds(1))
        #expect((1...5).contains(runs))
    }

    @Test func aSlowRunIsReportedAsSlow() {
        // Sleeping gives the core up voluntarily, which is no interruption: the run's length is
        // the sleep's at least.
        let elapsed = UndisturbedTiming.measure { usleep(60_000) }
        #expect(elapsed >= .milliseconds(60))
    }

    @Test func anErrorEndsTheMeasurement() {
        var runs = 0
        #expect(throws: CocoaError.self) {
            try UndisturbedTiming.measure {
                runs += 1
                throw CocoaError(.featureUnsupported)
            }
        }
        #expect(runs == 1)
    }
}

/// The trait puts a whole test, or each case of a parameterized one, on the lane.
@Suite(.offPool) struct OffPoolTraitTests {
    @Test func aTestWithTheTraitRunsOnTheLane() {
        #expect(OffPool.isOnLane)
    }

    @Test(arguments: 0..<3) func soDoesEachCaseOfAParameterizedTest(_ index: Int) async {
        #expect(OffPool.isOnLane)
        await Task.yield()
        #expect(OffPool.isOnLane)
    }
}

/// A count, incremented from any thread.
private final class BuildCount: Sendable {
    private let count = Locked(0)

    var value: Int { count.value }
    func increment() { count.withLock { $0 += 1 } }
}
