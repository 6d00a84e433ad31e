import Gateway

extension RedisLane {
    /// Runs `commands` on `connection` (connecting first when it is `nil`), once more on a fresh
    /// connection when a reused one turns out to be dropped; leaves `connection` `nil` after a failure.
    func perform(_ commands: [RedisCommand], id: UInt64, deadline: ContinuousClock.Instant,
                 on connection: inout RedisConnection?) async throws -> [RESPValue]
    {
        var reused = connection != nil
        while true {
            let live: RedisConnection
            if let existing = connection {
                live = existing
            } else {
                live = try await connect(deadline: deadline)
                connection = live
                // Cancelled while connecting: nothing was sent, and the connection stays for the next call.
                try Task.checkCancellation()
            }
            do {
                return try await exchange(commands, id: id, deadline: deadline, on: live)
            } catch let error as RedisError {
                live.close()
                connection = nil
                guard reused, error.kind == .connection else { throw error }
                reused = false
            } catch {
                live.close()
                connection = nil
                throw error
            }
        }
    }

    /// How long a call waits for its replies on its own thread before the wait moves to the
    /// lane's dispatch queue: a loopback round trip takes tens of microseconds, and a command that
    /// Redis holds (`BLPOP`) or a slow server must not keep a cooperative pool thread.
    static let inlineWait = Duration.milliseconds(1)

    /// Writes `commands` and waits for their replies on this thread for up to `inlineWait`, then,
    /// if they have not all come, suspends while the lane's queue reads the rest by `deadline`.
    /// A cancellation meanwhile shuts the socket down, and the call ends with `CancellationError`.
    private func exchange(_ commands: [RedisCommand], id: UInt64, deadline: ContinuousClock.Instant,
                          on connection: RedisConnection) async throws -> [RESPValue]
    {
        try await withTaskCancellationHandler {
            guard beginExchange(id: id, socket: connection.shutdownHandle) else { throw CancellationError() }
            var replies: [RESPValue] = []
            var failure: RedisError?
            do throws(RedisError) {
                try connection.send(commands, deadline: deadline)
                let inline = min(deadline, ContinuousClock.now + Self.inlineWait)
                try connection.readReplies(&replies, count: commands.count, deadline: inline)
            } catch where error.kind == .timeout && ContinuousClock.now < deadline {
                switch await readOffThread(connection, count: commands.count - replies.count, deadline: deadline) {
                case .success(let rest): replies += rest
                case .failure(let error): failure = error
                }
            } catch {
                failure = error
            }
            // Shut down under cancellation, the socket cannot be used again even when every reply came.
            guard !endExchange() else { throw CancellationError() }
            if let failure { throw failure }
            return replies
        } onCancel: {
            interruptExchange(id: id)
        }
    }

    /// Connects on the lane's dispatch queue, not on the caller's thread, by `deadline`.
    private func connect(deadline: ContinuousClock.Instant) async throws -> RedisConnection {
        let url = url
        let limits = limits
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<RedisConnection, any Error>) in
            connector.async {
                do {
                    continuation.resume(returning: try RedisConnection(url: url, limits: limits, deadline: deadline))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
