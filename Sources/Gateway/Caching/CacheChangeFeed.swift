import Foundation

/// Tells the watchers of cache keys (`Provider.watch`) when an entry they read is stored again or
/// removed. A watcher's changes are coalesced to the latest (a slow watcher reads the entry as it
/// is now, not every step), and a watcher that stops takes its place out at once.
final class CacheChangeFeed: Sendable {
    /// What happened to a watched entry.
    enum Change: Sendable {
        /// A response was stored under the key (by any request).
        case stored
        /// The entry was removed: invalidated or purged.
        case removed
    }

    /// One watcher's place: remove it with `stopWatching(_:)`.
    struct Watch: Sendable {
        let id: UInt64
        let key: CacheKey.Digest
        /// The changes of the watched key, the latest first.
        let changes: AsyncStream<Change>
    }

    private struct State {
        var nextID: UInt64 = 0
        var watchers: [CacheKey.Digest: [UInt64: AsyncStream<Change>.Continuation]] = [:]
        /// Who waits for the last watcher to stop.
        var unwatched: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    /// Whether anyone watches a key (an invalidation then lists the keys it removes).
    var isWatched: Bool { state.withLock { !$0.watchers.isEmpty } }

    /// How many watchers there are, for every key.
    var watcherCount: Int { state.withLock { $0.watchers.values.reduce(0) { $0 + $1.count } } }

    /// Starts watching `key`.
    func watch(_ key: CacheKey) -> Watch {
        let (changes, continuation) = AsyncStream.makeStream(of: Change.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state -> UInt64 in
            state.nextID &+= 1
            state.watchers[key.digest, default: [:]][state.nextID] = continuation
            return state.nextID
        }
        return Watch(id: id, key: key.digest, changes: changes)
    }

    /// Ends a watch: its sequence finishes and its place is freed.
    func stopWatching(_ watch: Watch) {
        let (continuation, waiting) = state.withLock { state in
            let removed = state.watchers[watch.key]?.removeValue(forKey: watch.id)
            if state.watchers[watch.key]?.isEmpty == true { state.watchers[watch.key] = nil }
            var waiting: [CheckedContinuation<Void, Never>] = []
            if state.watchers.isEmpty { swap(&waiting, &state.unwatched) }
            return (removed, waiting)
        }
        continuation?.finish()
        for waiter in waiting { waiter.resume() }
    }

    /// Returns once nobody watches any key.
    func whenUnwatched() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state in
                guard !state.watchers.isEmpty else { return true }
                state.unwatched.append(waiter)
                return false
            }
            if idle { waiter.resume() }
        }
    }

    /// Tells the watchers of each key in `keys`.
    func notify(_ keys: some Sequence<CacheKey>, _ change: Change) {
        let continuations = state.withLock { state in
            keys.flatMap { state.watchers[$0.digest].map { Array($0.values) } ?? [] }
        }
        for continuation in continuations { continuation.yield(change) }
    }
}
