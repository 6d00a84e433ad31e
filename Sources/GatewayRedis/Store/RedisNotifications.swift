import Foundation
import Gateway

/// What a store hears from the other instances on its key prefix's channels: the ends of their
/// leases (which wake this instance's waiting requests) and their removals (which go to the
/// observers, the memory layer in front). It owns the store's subscriber, started at the first
/// need, and refers to nothing of the store's, so the subscriber's thread never keeps it alive.
final class RedisNotifications: Sendable {
    /// This store's identifier in its removal notices.
    let instance = UUID().uuidString
    let keys: RedisKeys
    let waiters = RedisFlightWaiters()
    private let observers = Locked<[@Sendable (SharedCacheRemoval) -> Void]>([])
    private let subscriber: RedisSubscriber

    init(url: RedisURL, keys: RedisKeys, connectTimeout: Duration) {
        self.keys = keys
        let waiters = waiters
        let observers = observers
        let instance = instance
        subscriber = RedisSubscriber(url: url, channels: [keys.flightChannel, keys.removalChannel],
                                     connectTimeout: connectTimeout) { event in
            switch event {
            case .subscribed(let reconnected):
                // Whatever was published while no subscription was confirmed is lost: waiters
                // check their leases again, and after a drop memory in front forgets everything.
                waiters.subscriptionChanged()
                if reconnected {
                    for observer in observers.value { observer(.possiblyMissed) }
                }
            case .dropped:
                // No end can be heard now: waiters check their leases (Redis may be gone too).
                waiters.subscriptionChanged()
            case .keptAlive:
                break
            case .message(let channel, let payload):
                if channel == keys.flightChannel {
                    Self.flightEnded(payload, waiters: waiters)
                } else if let notice = RedisRemovalNotice.decode(payload), notice.from != instance,
                          let selection = notice.selection {
                    for observer in observers.value { observer(.removed(selection)) }
                }
            }
        }
    }

    deinit { subscriber.close() }

    /// Whether the subscription is confirmed now: ends and removals published now are heard.
    var isListening: Bool { subscriber.isSubscribed }

    /// Starts listening (once; later calls do nothing).
    func start() { subscriber.start() }

    /// Starts listening (once), and returns whether the subscription was confirmed within `timeout`.
    func listen(timeout: Duration) async -> Bool {
        subscriber.start()
        return await subscriber.waitUntilSubscribed(timeout: timeout)
    }

    /// Adds an observer of other instances' removals and starts listening.
    func observeRemovals(_ observer: @escaping @Sendable (SharedCacheRemoval) -> Void) {
        observers.withLock { $0.append(observer) }
        subscriber.start()
    }

    /// The message of a lease's end: `<hex> stored` or `<hex> none`.
    static func flightMessage(_ digest: CacheKey.Digest, stored: Bool) -> String {
        digest.hex + (stored ? " stored" : " none")
    }

    private static func flightEnded(_ payload: [UInt8], waiters: RedisFlightWaiters) {
        let words = String(decoding: payload, as: UTF8.self).split(separator: " ")
        guard words.count == 2, let digest = CacheKey.Digest(hex: String(words[0])) else { return }
        waiters.released(digest, stored: words[1] == "stored")
    }
}
