import Gateway

/// One instance's lease on a key's network call (see `RedisCacheStore.flight(for:now:deadline:)`).
///
/// While it is held, it is renewed every third of `flightLease`, so that a slow call keeps it;
/// a holder that dies stops renewing, and the lease expires. Ending it (once) deletes it only if
/// it is still this holder's (a compare-and-delete script) and publishes whether an entry was
/// stored. A lease dropped without being ended ends itself, with nothing stored.
final class RedisFlightLease: CacheFlightLease {
    private let store: RedisCacheStore
    private let digest: CacheKey.Digest
    private let token: String
    private let ended = Locked(false)
    private let renewal: Task<Void, Never>

    init(store: RedisCacheStore, digest: CacheKey.Digest, token: String) {
        self.store = store
        self.digest = digest
        self.token = token
        let interval = store.flightLease / 3
        renewal = Task { [weak store] in
            while (try? await Task.sleep(for: interval)) != nil {
                guard let store, await store.renew(digest, token: token) else { return }
            }
        }
    }

    deinit {
        guard claim() else { return }
        renewal.cancel()
        Task { [store, digest, token] in await store.release(digest, token: token, stored: false) }
    }

    /// Ends the lease and tells the waiting instances whether an entry was stored.
    func end(stored: Bool) async {
        guard claim() else { return }
        renewal.cancel()
        await store.release(digest, token: token, stored: stored)
    }

    private func claim() -> Bool {
        ended.withLock { ended in
            defer { ended = true }
            return !ended
        }
    }
}
