import Gateway

extension RedisLane {
    /// How long a call waits for its replies on its own thread before it hands the rest of the
    /// read to the lane's thread: a loopback round trip takes tens of microseconds, and a command
    /// that Redis holds (`BLPOP`) or a slow server must not keep a cooperative pool thread.
    static let inlineWait = Duration.milliseconds(1)

    /// Runs the call on the lane's idle `connection`, which the caller now owns (see
    /// `takeIdleConnection`): writes the commands and waits for the replies here for up to
    /// `inlineWait`, then, if they have not all come, hands the rest of the read to the thread.
    /// A dropped connection (found before anything was sent) sends the call to the thread, which
    /// runs it on a new one.
    func callInline(_ commands: [RedisCommand], id: UInt64, deadline: ContinuousClock.Instant,
                    on connection: RedisConnection) async throws -> [RESPValue]
    {
        // Recorded as the current call (with its socket) when the lane was taken: a cancellation
        // from then on shuts the socket down; one before is seen here.
        guard !Task.isCancelled else {
            let interrupted = endExchange()
            if interrupted { connection.close() }
            giveBack(interrupted ? nil : connection)
            throw CancellationError()
        }
        var replies: [RESPValue] = []
        do throws(RedisError) {
            try connection.send(commands, deadline: deadline)
            let inline = min(deadline, ContinuousClock.now + Self.inlineWait)
            try connection.readReplies(&replies, count: commands.count, deadline: inline)
        } catch where error.kind == .timeout && ContinuousClock.now < deadline {
            return try await handOver(commands, id: id, deadline: deadline, received: replies, connection: connection)
        } catch {
            let interrupted = endExchange()
            connection.close()
            guard !interrupted, error.kind == .connection, replies.isEmpty else {
                giveBack(nil)
                throw interrupted ? CancellationError() : error
            }
            // The reused connection was dropped: the call runs again, on a new connection.
            return try await handOver(commands, id: id, deadline: deadline, received: nil, connection: nil)
        }
        let interrupted = endExchange()
        // Shut down under cancellation, the socket cannot be used again even when every reply came.
        if interrupted {
            connection.close()
            giveBack(nil)
            throw CancellationError()
        }
        giveBack(connection)
        return replies
    }

    /// Gives the lane the caller owns, with `connection`, to the thread, which runs the call
    /// first, and waits for the call's end. A call with `received` replies (its commands were
    /// sent) stays the current call, whose cancellation shuts the socket down; one to run again
    /// from the start can be cancelled while it waits.
    private func handOver(_ commands: [RedisCommand], id: UInt64, deadline: ContinuousClock.Instant,
                          received: [RESPValue]?, connection: RedisConnection?) async throws -> [RESPValue]
    {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[RESPValue], any Error>) in
            let job = Job(id: id, commands: commands, deadline: deadline, received: received) {
                continuation.resume(with: $0)
            }
            let refused = state.withLock { state -> Bool in
                state.connection = connection
                state.owner = .thread
                wakeup.signal()
                // A cancellation before the call was handed over found nothing to take out of the line.
                if received == nil && Task.isCancelled { return true }
                state.handedOver = job
                return false
            }
            if refused { continuation.resume(throwing: CancellationError()) }
        }
    }

    /// Gives the lane the caller owns back, with `connection` (`nil` when it was dropped): to the
    /// thread when calls are queued or the lane was closed, else to nobody.
    func giveBack(_ connection: RedisConnection?) {
        state.withLock { state in
            state.connection = connection
            state.owner = .nobody
            if state.queued > 0 || state.closed { giveToThreadIfIdle(&state) }
        }
    }
}
