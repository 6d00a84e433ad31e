import Foundation
import Gateway

/// A Redis client over TCP with the package's own RESP2 code: a small pool of connections,
/// pipelined commands, a deadline per call, and reconnection after a dropped connection.
///
/// Each connection belongs to a thread of its own, which does the blocking socket work; a call
/// suspends its task until the reply is read, so the cooperative pool is never blocked. A call
/// goes to the connection with the fewest calls queued. A call's deadline covers waiting for its
/// connection, connecting (with `AUTH` and `SELECT`), sending and reading every reply.
///
/// ```swift
/// let redis = RedisClient(url: try RedisURL("redis://127.0.0.1:6379/0"))
/// let replies = try await redis.pipeline([RedisCommand("SET", "a", "1"), RedisCommand("GET", "a")])
/// print(replies[1].text ?? "")   // 1
/// ```
public final class RedisClient: Sendable {
    /// The server and login.
    public let url: RedisURL
    /// How long a call may take, from the call to its last reply.
    public let timeout: Duration
    private let workers: [RedisWorker]
    private let nextID = Locked<UInt64>(0)

    /// Creates a client; connections are made when first needed.
    ///
    /// - Parameters:
    ///   - url: the server and login.
    ///   - poolSize: how many connections (each with a thread of its own); at least 1.
    ///   - timeout: how long a call may take: 500 ms by default.
    ///   - limits: the bounds replies are held to.
    public init(url: RedisURL, poolSize: Int = 4, timeout: Duration = .milliseconds(500),
                limits: RESPLimits = RESPLimits()) {
        self.url = url
        self.timeout = timeout
        workers = (0..<max(1, poolSize)).map { index in
            RedisWorker(url: url, limits: limits, name: "GatewayRedis:\(url.host):\(url.port)#\(index)")
        }
    }

    deinit { close() }

    /// Ends the connections: queued calls fail with `RedisError` of kind `.closed`.
    public func close() {
        for worker in workers { worker.close() }
    }

    /// Sends one command and returns its reply.
    ///
    /// - Throws: `RedisError` when there is no reply (an error reply is returned, not thrown);
    ///   `CancellationError` when the task was cancelled before the command was sent.
    public func send(_ command: RedisCommand, timeout: Duration? = nil) async throws -> RESPValue {
        let replies = try await pipeline([command], timeout: timeout)
        guard let reply = replies.first else { throw RedisError(.protocolViolation, "no reply from Redis at \(url)") }
        return reply
    }

    /// Sends the commands in one write on one connection and returns their replies in order.
    ///
    /// - Parameters:
    ///   - commands: the commands; `MULTI` … `EXEC` among them makes them one transaction.
    ///   - timeout: this call's time limit; the client's `timeout` by default.
    /// - Returns: one reply per command; a refused command's reply is `.error`.
    /// - Throws: `RedisError` when the replies do not all arrive in time; `CancellationError`
    ///   when the task was cancelled before the commands were sent.
    public func pipeline(_ commands: [RedisCommand], timeout: Duration? = nil) async throws -> [RESPValue] {
        guard !commands.isEmpty else { return [] }
        try Task.checkCancellation()
        let deadline = ContinuousClock.now + (timeout ?? self.timeout)
        let worker = leastLoaded()
        let id = nextID.withLock { id -> UInt64 in
            id &+= 1
            return id
        }
        let url = url
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[RESPValue], any Error>) in
                let job = RedisWorker.Job(id: id, commands: commands, deadline: deadline) { continuation.resume(with: $0) }
                if !worker.submit(job) {
                    continuation.resume(throwing: RedisError(.closed, "the Redis client for \(url) was closed"))
                }
            }
        } onCancel: {
            worker.cancel(id)
        }
    }

    private func leastLoaded() -> RedisWorker {
        let start = Int(truncatingIfNeeded: nextID.value % UInt64(workers.count))
        var best = workers[start]
        var bestLoad = best.load
        for offset in 1..<max(workers.count, 1) where bestLoad > 0 {
            let worker = workers[(start + offset) % workers.count]
            let load = worker.load
            if load < bestLoad {
                best = worker
                bestLoad = load
            }
        }
        return best
    }
}
