import Dispatch
import Foundation
import Gateway

/// A thread of its own that owns one connection and runs jobs on it, one after the other.
///
/// Blocking socket I/O happens only here, never on Swift concurrency's cooperative pool: callers
/// suspend on a continuation that the thread resumes. The connection is made at the first job,
/// dropped after any failure and made again by the next job; a job that meets a dropped
/// connection it had reused (the server restarted, an idle timeout closed it) runs once more on
/// a fresh one. A job still queued when its deadline passes fails without touching the network,
/// so a caller never waits much past its own deadline however slow the jobs before it were.
final class RedisWorker: Sendable {
    struct Job: Sendable {
        let id: UInt64
        let commands: [RedisCommand]
        let deadline: ContinuousClock.Instant
        let complete: @Sendable (Result<[RESPValue], any Error>) -> Void
    }

    private struct State {
        var jobs: [Job] = []
        var head = 0
        var running = false
        var closed = false

        var load: Int { jobs.count - head + (running ? 1 : 0) }

        mutating func pop() -> Job? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            }
            running = true
            return job
        }
    }

    let url: RedisURL
    let limits: RESPLimits
    private let state = Locked(State())
    private let wakeup = DispatchSemaphore(value: 0)

    init(url: RedisURL, limits: RESPLimits, name: String) {
        self.url = url
        self.limits = limits
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    /// Queued and running jobs.
    var load: Int { state.withLock { $0.load } }

    /// Queues `job`; `false` when the worker was closed.
    func submit(_ job: Job) -> Bool {
        let accepted = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.jobs.append(job)
            return true
        }
        if accepted { wakeup.signal() }
        return accepted
    }

    /// Fails the job `id` with `CancellationError` if it has not started.
    func cancel(_ id: UInt64) {
        let job = state.withLock { state -> Job? in
            guard let index = state.jobs[state.head...].firstIndex(where: { $0.id == id }) else { return nil }
            return state.jobs.remove(at: index)
        }
        job?.complete(.failure(CancellationError()))
    }

    /// Fails the queued jobs and ends the thread after the running one (which its deadline bounds).
    func close() {
        state.withLock { $0.closed = true }
        wakeup.signal()
    }

    private func run() {
        var connection: RedisConnection?
        while true {
            wakeup.wait()
            let (job, closed) = state.withLock { state -> (Job?, Bool) in
                state.closed ? (nil, true) : (state.pop(), false)
            }
            if closed { break }
            guard let job else { continue }
            if ContinuousClock.now >= job.deadline {
                state.withLock { $0.running = false }
                job.complete(.failure(RedisError(.timeout, "timed out waiting for a connection to Redis at \(url)")))
                continue
            }
            let result = perform(job, on: &connection)
            state.withLock { $0.running = false }
            job.complete(result)
        }
        connection?.close()
        let left = state.withLock { state -> [Job] in
            defer { state.jobs.removeAll() }
            return Array(state.jobs[state.head...])
        }
        for job in left { job.complete(.failure(RedisError(.closed, "the Redis client for \(url) was closed"))) }
    }

    private func perform(_ job: Job, on connection: inout RedisConnection?) -> Result<[RESPValue], any Error> {
        var attempt = 0
        while true {
            attempt += 1
            let reused = connection != nil
            do {
                let live: RedisConnection
                if let existing = connection {
                    live = existing
                } else {
                    live = try RedisConnection(url: url, limits: limits, deadline: job.deadline)
                    connection = live
                }
                return .success(try live.run(job.commands, deadline: job.deadline))
            } catch {
                connection?.close()
                connection = nil
                guard reused, attempt == 1, error.kind == .connection else { return .failure(error) }
            }
        }
    }
}
