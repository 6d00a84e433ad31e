import Foundation
import Gateway

extension RedisCacheStore {
    /// The entry of `key`, fresh or expired, counting a hit, stale hit or miss.
    ///
    /// One `HMGET` of the fields an entry needs (not the key components, which the caller has);
    /// the hit on the entry is counted in memory and written with the next batch, as `touch` does.
    /// A miss when Redis is unavailable. An entry whose stored status, header text or body no
    /// longer match their checksum is a miss, and is deleted with one warning.
    public func get(_ key: CacheKey, now: Date) async throws -> CacheEntry? {
        var read = RedisCommand("HMGET")
        read.append(bytes: keys.entryBytes(key.digest))
        for name in RedisEntryFields.nameArguments { read.append(bytes: name) }
        guard case .replies(let replies) = await exchange([read]), let reply = replies.first,
              let fields = RedisEntryFields(values: reply)
        else {
            count(key) { $0.misses += 1 }
            return nil
        }
        guard fields.checksumMatches, let entry = fields.entry(key: key) else {
            count(key) { $0.misses += 1 }
            // Index members of the deleted entry are pruned when an index is next read.
            _ = await exchange([RedisCommand("DEL", keys.entry(key.digest))])
            warn(CacheWarning("a cached response of \(key.components.name) no longer matched its checksum (its stored "
                              + "bytes were damaged); it was deleted, and the request is answered as on a miss",
                              path: client.url.description))
            return nil
        }
        try await touch(key, now: now, stale: !entry.isFresh(at: now))
        return entry
    }

    /// Stores `entry` (replacing any entry of its key) in one transaction with its index entries.
    ///
    /// - Returns: `false` when the entry is larger than `maximumEntryBytes`, when Redis is
    ///   unavailable, or when Redis refused the write (full memory under `noeviction`; warned once).
    @discardableResult
    public func put(_ entry: CacheEntry) async throws -> Bool {
        let fields = CacheStoredFields(entry)
        guard fields.size <= maximumEntryBytes else {
            _ = try? await remove(.key(entry.key))
            return false
        }
        let nowMilliseconds = Int64((Date().timeIntervalSince1970 * 1000).rounded())
        let lifetime = lifetimeMilliseconds(entry, now: Date())
        let name = keys.entry(entry.key.digest)
        var write = RedisCommand("HSET", name)
        RedisRecord.hashArguments(fields, into: &write)
        var commands = [RedisCommand("MULTI"), RedisCommand("DEL", name), write,
                        RedisCommand("PEXPIRE", name, String(lifetime))]
        let score = String(nowMilliseconds + lifetime)
        for index in keys.indexes(of: entry) {
            commands.append(RedisCommand("ZADD", index, score, entry.key.hex))
            commands.append(RedisCommand("ZREMRANGEBYSCORE", index, "-inf", String(nowMilliseconds)))
        }
        commands.append(RedisCommand("EXEC"))
        guard case .replies(let replies) = await exchange(commands) else { return false }
        let transaction = replies.last?.arrayValue
        let refusal = replies.lazy.compactMap(\.errorMessage).first
            ?? (transaction == nil ? "the transaction did not run" : transaction?.lazy.compactMap(\.errorMessage).first)
        if let refusal {
            warnOnce("write:" + String(refusal.prefix { $0 != " " }),
                     "the Redis cache refused to store a response (\(refusal)); responses are not cached while it does")
            return false
        }
        count(entry.key) { $0.writes += 1 }
        return true
    }

    /// Counts a hit of `key` served by a store in front of this one; written with the next batch.
    public func touch(_ key: CacheKey, now: Date, stale: Bool) async throws {
        let seconds = now.timeIntervalSince1970
        state.withLock { state in
            if var touch = state.touches[key.digest] {
                touch.hits += 1
                touch.lastAccess = max(touch.lastAccess, seconds)
                state.touches[key.digest] = touch
            } else if state.touches.count < 16 * Self.flushThreshold {
                state.touches[key.digest] = PendingTouch(hits: 1, lastAccess: seconds)
            }
            state.counters.update(key.components.statisticsName) { counters in
                if stale { counters.staleHits += 1 } else { counters.hits += 1 }
            }
        }
    }

    /// Writes the pending counters and hits now.
    ///
    /// - Throws: `GatewayError` of kind `.cache` when Redis is unavailable.
    public func flush() async throws {
        _ = try await answers(to: [RedisCommand("PING")], action: "write the cache counters", flush: true)
    }

    /// How long the entry's Redis key lives: until `staleRetention` after it stops being fresh,
    /// at most `maximumRetention`, at least a millisecond.
    func lifetimeMilliseconds(_ entry: CacheEntry, now: Date) -> Int64 {
        let maximum = Self.milliseconds(maximumRetention)
        guard let expiresAt = entry.expiresAt else { return maximum }
        let fresh = max(0, expiresAt.timeIntervalSince(now) * 1000)
        let lifetime = Int64(min(fresh, Double(maximum))) + Self.milliseconds(staleRetention)
        return max(1, min(lifetime, maximum))
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
