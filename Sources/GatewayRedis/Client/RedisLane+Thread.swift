import Gateway

extension RedisLane {
    /// The lane's thread: each time it is given the lane, it runs the handed-over call and the
    /// queued ones until none is left, then gives the lane back. It ends, closing the connection,
    /// when it is given a closed lane with nothing left to finish.
    func runThread() {
        while true {
            wakeup.wait()
            work: while true {
                switch takeWork() {
                case .run(let job, var connection):
                    let result = job.received == nil ? run(job, on: &connection) : finish(job, on: &connection)
                    state.withLock { $0.connection = connection }
                    job.complete(result)
                case .givenBack:
                    break work
                case .end(let connection):
                    connection?.close()
                    return
                }
            }
        }
    }

    private enum Work {
        /// Run this call on the connection.
        case run(Job, RedisConnection?)
        /// Nothing is left: the lane went back to nobody.
        case givenBack
        /// The lane is closed and nothing is left: the thread ends, keeping the lane, so no one uses it again.
        case end(RedisConnection?)
    }

    /// The thread's next work; it owns the lane.
    private func takeWork() -> Work {
        state.withLock { state -> Work in
            if let job = state.handedOver.take() {
                // A call with received replies is the current call already (with its socket).
                if job.received == nil { begin(job, in: &state) }
                return .run(job, state.connection.take())
            }
            if let job = state.popQueued() {
                begin(job, in: &state)
                return .run(job, state.connection.take())
            }
            if state.closed { return .end(state.connection.take()) }
            state.owner = .nobody
            return .givenBack
        }
    }

    private func begin(_ job: Job, in state: inout State) {
        state.current = (job.id, nil)
        state.interrupted = false
    }

    /// Runs `job` from the start on `connection` (connecting first when it is `nil`), once more on
    /// a fresh connection when a reused one turns out to be dropped; leaves `connection` `nil`
    /// after a failure.
    private func run(_ job: Job, on connection: inout RedisConnection?) -> Result<[RESPValue], any Error> {
        guard ContinuousClock.now < job.deadline else {
            _ = endExchange()
            return .failure(RedisError(.timeout, "timed out waiting for a connection to Redis at \(url)"))
        }
        var reused = connection != nil
        while true {
            do throws(RedisError) {
                let live: RedisConnection
                if let existing = connection {
                    live = existing
                } else {
                    live = try RedisConnection(url: url, limits: limits, deadline: job.deadline)
                    connection = live
                }
                guard beginExchange(on: live.shutdownHandle) else {
                    // Cancelled before anything was sent: the connection stays for the next call.
                    _ = endExchange()
                    return .failure(CancellationError())
                }
                return ended(.success(try live.run(job.commands, deadline: job.deadline)), on: &connection)
            } catch {
                guard reused, error.kind == .connection, !detachSocket() else {
                    return ended(.failure(error), on: &connection)
                }
                // The reused connection was dropped: once more on a new one, still as the current
                // call (without a socket until then, so a cancellation meanwhile stops it there).
                connection?.close()
                connection = nil
                reused = false
            }
        }
    }

    /// Forgets the current call's socket, so that it can be closed; `true` when the call was cancelled.
    private func detachSocket() -> Bool {
        state.withLock { state in
            state.current?.socket = nil
            return state.interrupted
        }
    }

    /// Reads the rest of the replies of a call whose caller sent its commands and read the first.
    private func finish(_ job: Job, on connection: inout RedisConnection?) -> Result<[RESPValue], any Error> {
        guard let live = connection, var replies = job.received else {
            _ = endExchange()
            return .failure(RedisError(.connection, "the connection to Redis at \(url) was lost"))
        }
        do throws(RedisError) {
            try live.readReplies(&replies, count: job.commands.count, deadline: job.deadline)
            return ended(.success(replies), on: &connection)
        } catch {
            return ended(.failure(error), on: &connection)
        }
    }

    /// Ends the current call's exchange with `result`: a `CancellationError` when its
    /// cancellation shut the socket down, and the connection dropped after any failure.
    private func ended(_ result: Result<[RESPValue], RedisError>, on connection: inout RedisConnection?)
        -> Result<[RESPValue], any Error>
    {
        let interrupted = endExchange()
        if !interrupted, case .success = result { return result.mapError { $0 as any Error } }
        // Shut down under cancellation, the socket cannot be used again even when every reply came.
        connection?.close()
        connection = nil
        return interrupted ? .failure(CancellationError()) : result.mapError { $0 as any Error }
    }
}
