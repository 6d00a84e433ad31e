import Foundation
import Gateway

extension RedisCacheStore: CacheFlightCoordinator, SharedCacheStore {
    /// The store itself: it coordinates the instances sharing its key prefix.
    public var flightCoordinator: (any CacheFlightCoordinator)? { self }

    /// Which instance calls the network for `key`: this one when it takes the key's lease
    /// (`SET NX PX`), else the holder, whose end this instance waits for (a message on the
    /// flights channel; the lease's expiry when the holder died, and then it tries again).
    ///
    /// - Returns: `.lead` with the lease; `.follow` with the entry the holder stored (or, with
    ///   `now`, an entry fresh at `now` that a holder stored just before this instance took the
    ///   lease); `.alone` when the holder stored
    ///   nothing, when Redis is unavailable (the circuit breaker's rule), at `deadline`, or when
    ///   the waiting task is cancelled.
    public func flight(for key: CacheKey, freshAt now: Date?, deadline: ContinuousClock.Instant?) async -> CacheFlight {
        let waiters = notifications.waiters
        // Registered before the lease is checked, so that an end published after the check is kept.
        let waiter = waiters.register(key.digest)
        defer { waiters.unregister(waiter) }
        let lease = keys.flight(key.digest)
        let token = UUID().uuidString
        while !Task.isCancelled {
            let remaining = deadline.map { ContinuousClock.now.duration(to: $0) }
            if let remaining, remaining <= .zero { return .alone }
            // Listening before the check: a later end is heard. Otherwise the confirmation of the
            // subscription wakes the wait, and short waits cover a subscription that never comes.
            let listening = notifications.isListening
            if !listening { notifications.start() }
            let commands = [RedisCommand("SET", lease, token, "NX", "PX", String(Self.milliseconds(flightLease))),
                            RedisCommand("PTTL", lease), RedisCommand("HGETALL", keys.entry(key.digest))]
            guard case .replies(let replies) = await exchange(commands), replies.count == 3 else { return .alone }
            if replies[0].text == "OK" {
                // A holder may have stored the entry between this request's look-up and now.
                if let now, let entry = storedEntry(replies[2], key: key), entry.isFresh(at: now) {
                    count(key) { $0.hits += 1 }
                    await release(key.digest, token: token, stored: true)
                    return .follow(entry)
                }
                return .lead(RedisFlightLease(store: self, digest: key.digest, token: token))
            }
            var wait = Duration.milliseconds(max(1, replies[1].integerValue ?? Self.milliseconds(flightLease)))
            if !listening { wait = min(wait, .milliseconds(100)) }
            if let remaining { wait = min(wait, remaining) }
            switch await waiters.wait(waiter, timeout: wait) {
            case .released(stored: true):
                guard let entry = try? await get(key, now: now ?? Date()) else { return .alone }
                return .follow(entry)
            case .released(stored: false), .cancelled:
                return .alone
            case .timedOut, .subscriptionChanged:
                continue
            }
        }
        return .alone
    }

    /// Adds an observer of the removals other instances make; the store starts listening.
    public func observeRemovals(_ observer: @escaping @Sendable (SharedCacheRemoval) -> Void) {
        notifications.observeRemovals(observer)
    }

    /// Starts listening to the other instances, and returns whether the subscription was
    /// confirmed within `timeout`.
    package func listen(timeout: Duration) async -> Bool {
        await notifications.listen(timeout: timeout)
    }

    /// Returns once `count` waits for another instance's lease have begun on this store (tests).
    package func waitForFlightWaits(_ count: Int) async {
        await notifications.waiters.waitForArrivals(count)
    }

    /// Ends the lease `token` holds on `digest` (nothing when it is no longer its) and tells the waiters.
    func release(_ digest: CacheKey.Digest, token: String, stored: Bool) async {
        _ = await exchange([RedisScripts.call(
            RedisScripts.release, keys: [keys.flight(digest)],
            arguments: [token, keys.flightChannel, RedisNotifications.flightMessage(digest, stored: stored)])])
    }

    /// Extends the lease `token` holds on `digest`; `false` when it is no longer its or Redis
    /// did not answer.
    func renew(_ digest: CacheKey.Digest, token: String) async -> Bool {
        let renewal = RedisScripts.call(RedisScripts.renew, keys: [keys.flight(digest)],
                                        arguments: [token, String(Self.milliseconds(flightLease))])
        guard case .replies(let replies) = await exchange([renewal]) else { return false }
        return replies.first?.integerValue == 1
    }

    /// The entry in an `HGETALL` reply when it is whole and matches its checksum.
    private func storedEntry(_ reply: RESPValue, key: CacheKey) -> CacheEntry? {
        guard let fields = RedisRecord.fields(ofHashReply: reply), !fields.isEmpty, RedisRecord.checksumMatches(fields)
        else { return nil }
        return RedisRecord.entry(fields, key: key)
    }
}
