#if canImport(Testing)
/// Waits, before a check that measures real time, until the cooperative thread pool hands a new
/// task a thread at once.
///
/// When a whole suite starts on a machine with two cores, hundreds of tests are queued on two
/// threads, and a check whose clock starts then measures the queue, not the code. Nothing here
/// sleeps: it only measures how soon a task runs, and gives up waiting after `limit`.
/// `TransportConformance` waits here before each check; this package's own timed suites reach
/// it through their `.quietScheduler` trait.
package enum QuietScheduler {
    /// Returns once three new tasks in a row start within 2 ms, or after `limit`.
    package static func wait(limit: Duration = .seconds(60)) async {
        let giveUpAt = ContinuousClock.now + limit
        var quietInARow = 0
        while quietInARow < 3, ContinuousClock.now < giveUpAt {
            let before = ContinuousClock.now
            await Task.detached {}.value
            quietInARow = ContinuousClock.now - before < .milliseconds(2) ? quietInARow + 1 : 0
        }
    }

    /// Runs `body` once no other timed check runs and the scheduler is quiet: timed checks take
    /// turns in arrival order, so that none of them measures another's load. A check already
    /// holding the turn (a timed suite running `TransportConformance`) runs at once.
    ///
    /// - Parameters:
    ///   - waitingForQuiet: `false` for heavy work that only must not overlap a timed check
    ///     (compiling in a child process, say): it takes the turn without waiting for quiet.
    ///   - body: the check or the work.
    package static func inTurn<T>(waitingForQuiet: Bool = true, _ body: () async throws -> T) async rethrows -> T {
        if TimedTurns.held { return try await body() }
        await TimedTurns.shared.acquire()
        if waitingForQuiet { await wait() }
        do {
            let result = try await TimedTurns.$held.withValue(true) { try await body() }
            await TimedTurns.shared.release()
            return result
        } catch {
            await TimedTurns.shared.release()
            throw error
        }
    }
}

/// One timed check at a time, in arrival order.
private actor TimedTurns {
    static let shared = TimedTurns()
    /// Whether the current task holds the turn.
    @TaskLocal static var held = false

    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
#endif
