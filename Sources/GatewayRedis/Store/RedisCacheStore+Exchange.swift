import Foundation
import Gateway

extension RedisCacheStore {
    /// What became of commands sent through the circuit breaker.
    enum Exchange {
        /// One reply per command.
        case replies([RESPValue])
        /// The breaker kept them from Redis (it is down, or another call is probing it).
        case skipped
        /// Redis did not answer them.
        case failed(RedisError)
    }

    /// Hits counted in memory are written when there are this many, or when the last write is
    /// older than `flushInterval`.
    static let flushThreshold = 512
    static let flushInterval = Duration.seconds(1)

    /// Sends `commands` when the circuit breaker allows, with the pending counters when they are
    /// due (or `flush`) and, at the first contact, the memory check; opens the breaker (with one
    /// warning per outage) when Redis does not answer.
    func exchange(_ commands: [RedisCommand], flush: Bool = false) async -> Exchange {
        let now = clock()
        let plan = state.withLock { state -> (extra: [RedisCommand], checksMemory: Bool)? in
            guard state.breaker.permits(at: now) else { return nil }
            let due = flush || state.touches.count >= Self.flushThreshold
                || state.lastFlush.map { $0.duration(to: now) >= Self.flushInterval } ?? true
            let extra = due ? pendingCommands(&state, now: now) : []
            return (extra, !state.memoryChecked)
        }
        guard let plan else { return .skipped }
        // Pending counters go first, so that a read of the statistics in `commands` includes them.
        // Most calls (every hit between two batches) send `commands` alone, as they are.
        var all = commands
        if !plan.extra.isEmpty { all = plan.extra + commands }
        if plan.checksMemory {
            all.append(RedisCommand("CONFIG", "GET", "maxmemory"))
            all.append(RedisCommand("CONFIG", "GET", "maxmemory-policy"))
        }
        do {
            let replies = try await client.pipeline(all)
            state.withLock { $0.breaker.succeeded() }
            if plan.checksMemory, replies.count >= 2 {
                checkMemory(maxMemory: replies[replies.count - 2], policy: replies[replies.count - 1])
            }
            guard all.count != commands.count else { return .replies(replies) }
            return .replies(Array(replies.dropFirst(plan.extra.count).prefix(commands.count)))
        } catch let error as RedisError where error.kind != .closed {
            let opened = state.withLock { $0.breaker.failed(at: clock()) }
            if opened {
                warn(CacheWarning(
                    "the Redis cache is unavailable (\(error.message)); requests go to the network without it, "
                        + "and Redis is tried again in \(Self.describe(state.withLock { $0.breaker.retryAfter }))",
                    path: client.url.description))
            }
            return .failed(error)
        } catch let error as RedisError {
            state.withLock { $0.breaker.abandoned(at: clock()) }
            return .failed(error)
        } catch {
            state.withLock { $0.breaker.abandoned(at: clock()) }
            return .failed(RedisError(.closed, "the call to Redis at \(client.url) was cancelled"))
        }
    }

    /// The replies to `commands`, or the error an operation that must not pass silently throws.
    func answers(to commands: [RedisCommand], action: String, flush: Bool = false) async throws -> [RESPValue] {
        switch await exchange(commands, flush: flush) {
        case .replies(let replies):
            return replies
        case .skipped:
            throw GatewayError(.cache, "could not \(action): the Redis cache at \(client.url) is unavailable "
                               + "(it failed recently and is tried again later)",
                               fix: "check that Redis runs and answers at that address",
                               underlying: RedisError(.connection, "the circuit breaker keeps calls away from Redis"))
        case .failed(let error):
            throw GatewayError(.cache, "could not \(action): \(error.message)",
                               fix: "check that Redis runs and answers at that address", underlying: error)
        }
    }

    /// Takes the pending counters and hits out of `state` as commands.
    private func pendingCommands(_ state: inout State, now: ContinuousClock.Instant) -> [RedisCommand] {
        state.lastFlush = now
        var commands: [RedisCommand] = []
        for (name, counters) in state.counters.counters where !counters.isZero {
            for (field, value) in [("hits", counters.hits), ("misses", counters.misses),
                                   ("stale_hits", counters.staleHits), ("writes", counters.writes),
                                   ("evictions", counters.evictions)] where value != 0 {
                commands.append(RedisCommand("HINCRBY", keys.statistics, field + ":" + name, String(value)))
            }
        }
        state.counters.removeAll()
        if !state.touches.isEmpty {
            var names: [String] = []
            var arguments: [String] = []
            for (digest, touch) in state.touches {
                names.append(keys.entry(digest))
                arguments.append(String(touch.hits))
                arguments.append(String(touch.lastAccess))
            }
            state.touches.removeAll(keepingCapacity: true)
            commands.append(RedisScripts.call(RedisScripts.touch, keys: names, arguments: arguments))
        }
        return commands
    }

    /// Counts a look-up or a write under the entry's statistics name.
    func count(_ key: CacheKey, _ change: (inout CacheCounters) -> Void) {
        state.withLock { $0.counters.update(key.components.statisticsName, change) }
    }

    static func describe(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds) s" }
        return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }
}
