import Gateway
import Synchronization

/// A Redis client over TCP with the package's own RESP2 code: a small pool of connections,
/// pipelined commands, a deadline per call, and reconnection after a dropped connection.
///
/// A call goes to the connection with the fewest calls on it. When that connection is idle the
/// call writes its commands and reads the replies on its own thread, with no hand-off to another
/// thread; otherwise the call waits in line, suspended, for the connection's own thread, which
/// runs the queued calls in order (see `RedisLane`). The inline wait blocks the calling thread,
/// which may be one of Swift concurrency's cooperative pool, for one round trip and at most
/// 1 ms: slower replies, and connecting, are waited for on the connection's thread while the call
/// suspends. A call's deadline covers waiting for its connection, connecting (with `AUTH` and
/// `SELECT`), sending and reading every reply.
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
    private let lanes: [RedisLane]
    private let nextID = Atomic<UInt64>(0)

    /// Creates a client; connections are made when first needed.
    ///
    /// - Parameters:
    ///   - url: the server and login.
    ///   - poolSize: how many connections; at least 1.
    ///   - timeout: how long a call may take: 500 ms by default.
    ///   - limits: the bounds replies are held to.
    public init(url: RedisURL, poolSize: Int = 4, timeout: Duration = .milliseconds(500),
                limits: RESPLimits = RESPLimits()) {
        self.url = url
        self.timeout = timeout
        lanes = (0..<max(1, poolSize)).map { index in
            RedisLane(url: url, limits: limits, name: "GatewayRedis:\(url.host):\(url.port)#\(index)")
        }
    }

    deinit { close() }

    /// Ends the connections: queued calls fail with `RedisError` of kind `.closed`.
    public func close() {
        for lane in lanes { lane.close() }
    }

    /// Sends one command and returns its reply.
    ///
    /// - Throws: `RedisError` when there is no reply (an error reply is returned, not thrown);
    ///   `CancellationError` when the task was cancelled before the command was sent, or while it waited.
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
    ///   when the task was cancelled before the commands were sent, or while it waited for their
    ///   replies (that connection is then dropped, and the next call makes a new one).
    public func pipeline(_ commands: [RedisCommand], timeout: Duration? = nil) async throws -> [RESPValue] {
        guard !commands.isEmpty else { return [] }
        try Task.checkCancellation()
        let deadline = ContinuousClock.now + (timeout ?? self.timeout)
        let id = nextID.wrappingAdd(1, ordering: .relaxed).newValue
        return try await leastLoaded(startingAt: id).call(commands, id: id, deadline: deadline)
    }

    /// The calls on the connections and in line for them.
    var load: Int { lanes.reduce(0) { $0 + $1.load } }

    private func leastLoaded(startingAt id: UInt64) -> RedisLane {
        let start = Int(truncatingIfNeeded: id % UInt64(lanes.count))
        var best = lanes[start]
        var bestLoad = best.load
        for offset in 1..<max(lanes.count, 1) where bestLoad > 0 {
            let lane = lanes[(start + offset) % lanes.count]
            let load = lane.load
            if load < bestLoad {
                best = lane
                bestLoad = load
            }
        }
        return best
    }
}
