// immediate-record.swift: a task started with `Task.immediate` and no executor preference still
// gets a task-executor preference record when the compiler does not fold the `nil` (here, as in
// the request core, because the start is not inlined into a loop). With the record, every
// executor switch of the task takes the task's status-record lock to read the preference.
//
//   swiftc -O -parse-as-library -swift-version 6 -enable-upcoming-feature NonisolatedNonsendingByDefault \
//       Benchmarks/immediate-record.swift -o /tmp/immediate-record
//   # libmainloop.so: the dispatch_main() shim that Benchmarks/callgrind-core.sh builds (valgrind
//   # does not run an async main without it)
//   for n in 1000 3000; do
//       LD_PRELOAD=libmainloop.so valgrind --tool=callgrind --callgrind-out-file=/tmp/ir.$n /tmp/immediate-record $n
//   done
//   # Per task, the difference of the two profiles over 2,000 tasks: the runtime's
//   # swift::AsyncTask::pushInitialTaskExecutorPreference runs once per task, and
//   # swift::AsyncTask::getPreferredTaskExecutor, which every executor switch calls, costs about
//   # 140 instructions a call (callgrind_annotate --inclusive=yes) instead of about 20 for a task
//   # without the record.
//
// Every overload of `Task.immediate` (Swift 6.3) takes an executor preference, `nil` by default,
// and hands it on to the runtime as it is; only where the compiler sees the `nil` is the record
// left out. Passing `globalConcurrentExecutor` gives the same record.
import Foundation

/// Something that starts a task; called through an existential, so not inlined into the loop.
protocol Starter: Sendable {
    func start(_ value: Int) -> Task<Int, any Error>
}

struct ImmediateStarter: Starter {
    func start(_ value: Int) -> Task<Int, any Error> {
        Task.immediate { try await work(value) }
    }
}

func work(_ value: Int) async throws -> Int {
    await Task.yield()  // one executor switch
    return value &+ 1
}

@concurrent func run(_ count: Int, _ starter: any Starter) async throws -> Int {
    var total = 0
    for index in 0..<count { total &+= try await starter.start(index).value }
    return total
}

@main
struct ImmediateRecord {
    static func main() async throws {
        guard CommandLine.arguments.count == 2, let count = Int(CommandLine.arguments[1]) else {
            print("usage: immediate-record TASKS")
            exit(2)
        }
        print(try await run(count, ImmediateStarter()))
    }
}
