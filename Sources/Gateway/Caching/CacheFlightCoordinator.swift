import Foundation

/// What a store shared by several instances (processes, machines) offers so that identical
/// requests in flight on all of them make one network call between them.
///
/// The response cache already shares one call between identical requests in flight on one
/// instance; with a coordinator it asks, before that call, which instance makes it. The
/// coordinator answers `.lead` to one of them (which calls the network, stores the response and
/// then ends its lease), and makes the others wait for that instance's result: `.follow` with the
/// entry it stored, or `.alone` when it stored nothing, when the wait would pass the request's
/// deadline, or when the coordinator cannot tell (the shared store is unreachable). A lease whose
/// holder dies expires, and a waiting instance takes over.
///
/// A store offers it through `CacheStore.flightCoordinator`; a store without one behaves as if
/// each instance were alone. Implementing one (every instance calls the network itself):
/// ```swift
/// struct Solitary: CacheFlightCoordinator {
///     func flight(for key: CacheKey, freshAt now: Date?, deadline: ContinuousClock.Instant?) async -> CacheFlight {
///         .alone
///     }
/// }
/// ```
public protocol CacheFlightCoordinator: Sendable {
    /// Which instance calls the network for `key`, waiting (at most until `deadline`) while
    /// another one does.
    ///
    /// - Parameters:
    ///   - key: the key of the request about to go to the network.
    ///   - now: for a request that a fresh entry may answer (`cacheFirst`), the time to judge
    ///     freshness by: an entry another instance stored just before this one took the lease
    ///     then answers too. `nil` for a request that wants the network (`networkFirst`,
    ///     `networkOnly`): only an entry stored by the call it waited for answers it.
    ///   - deadline: when the request must end; `nil` when it has no deadline (the wait is then
    ///     bounded by the other instance's lease alone).
    /// - Returns: `.lead` with the lease this instance holds, `.follow` with the entry another
    ///   instance stored, or `.alone`. A cancelled wait returns `.alone`.
    func flight(for key: CacheKey, freshAt now: Date?, deadline: ContinuousClock.Instant?) async -> CacheFlight
}

/// A coordinator's answer (see `CacheFlightCoordinator`).
public enum CacheFlight: Sendable {
    /// This instance calls the network; end the lease once the response was stored (or not).
    case lead(any CacheFlightLease)
    /// Another instance called the network and stored this entry: it is the answer.
    case follow(CacheEntry)
    /// Call the network without coordination.
    case alone
}

/// The right of one instance to call the network for a key while the others wait.
///
/// End it exactly once the call is settled: its waiters then read the stored entry (or, told that
/// nothing was stored, call the network themselves). A lease that is never ended expires.
public protocol CacheFlightLease: Sendable {
    /// Gives the lease up and tells the waiters whether an entry was stored; later calls do nothing.
    func end(stored: Bool) async
}

extension CacheStore {
    /// No coordination between instances.
    public var flightCoordinator: (any CacheFlightCoordinator)? { nil }
}
