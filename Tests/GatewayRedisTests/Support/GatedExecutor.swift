import Dispatch
import Gateway

/// A task executor that holds the jobs of the tasks preferring it while it is shut: those tasks
/// cannot run, as when every thread of the cooperative pool is taken by other work. Jobs run
/// one at a time on a queue of its own while it is open.
final class GatedExecutor: TaskExecutor {
    private struct State {
        var open = true
        var held: [UnownedJob] = []
    }

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "GatedExecutor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let runs = state.withLock { state -> Bool in
            if state.open { return true }
            state.held.append(job)
            return false
        }
        if runs { run(job) }
    }

    /// Holds every job from now on.
    func shut() { state.withLock { $0.open = false } }

    /// Runs the held jobs, and every job from now on.
    func open() {
        let held = state.withLock { state -> [UnownedJob] in
            state.open = true
            defer { state.held = [] }
            return state.held
        }
        for job in held { run(job) }
    }

    private func run(_ job: UnownedJob) {
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
