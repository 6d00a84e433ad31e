import Foundation
import Gateway
import Testing
@testable import GatewayCLI

@Suite struct BenchLaunchTests {
    @Test func theIdealScheduleRunsTheBlockerAloneThenEveryPriorityOnTheSlotThatFreesFirst() {
        let ideal = LaunchBenchmark.idealSchedule(cap: 6)
        // 150 ms refresh; 3 highs of 40 ms and 3 mediums start together; 30 mediums of 80 ms and
        // 5 lows of 120 ms then fill whichever slot frees first.
        #expect(ideal.lastByPriority[.high] == .milliseconds(190))
        #expect(ideal.lastByPriority[.medium] == .milliseconds(590))
        #expect(ideal.total == .milliseconds(710))
        let one = LaunchBenchmark.idealSchedule(cap: 1)
        let serial: Int64 = 150 + 3 * 40 + 30 * 80 + 5 * 120
        #expect(one.total == .milliseconds(serial))
    }

    @Test func theBenchmarkNamesAreChecked() async {
        let sink = CapturedOutput()
        let status = await Dispatcher.standard.run(["bench", "everything"], output: sink.output())
        #expect(status == 2)
        #expect(sink.stderr.contains("unknown benchmark 'everything'"))
    }
}
