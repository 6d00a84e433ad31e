/// Whether the network is usable, and over what: what a `ReachabilityMonitor` reports.
public struct NetworkPath: Sendable, Hashable, CustomStringConvertible {
    /// Whether requests can leave the machine.
    public enum Status: String, Sendable, Hashable {
        /// At least one interface other than loopback is up with an address.
        case satisfied
        /// No interface but loopback is usable: only requests to this machine can succeed.
        case unsatisfied
        /// The platform could not tell.
        case unknown
    }

    /// The kind of a network interface.
    public enum Interface: String, Sendable, Hashable, CaseIterable, Comparable {
        /// Wi-Fi (on Linux: an interface with `/sys/class/net/<name>/wireless`).
        case wifi
        /// A cellular modem.
        case cellular
        /// Ethernet and other wired links.
        case wired
        /// The loopback interface.
        case loopback
        /// A tunnel (on Linux: tun/tap devices, WireGuard and IP-in-IP tunnels).
        case vpn
        /// Anything else.
        case other

        /// Orders by declaration, for stable descriptions.
        public static func < (lhs: Interface, rhs: Interface) -> Bool {
            allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
        }
    }

    /// Whether the network is usable.
    public var status: Status
    /// The kinds of the interfaces that are up with an address.
    public var interfaces: Set<Interface>

    /// Creates a path.
    public init(status: Status, interfaces: Set<Interface> = []) {
        self.status = status
        self.interfaces = interfaces
    }

    /// A path the platform could not determine.
    public static let unknown = NetworkPath(status: .unknown)

    /// `satisfied (wired, loopback)`.
    public var description: String {
        let kinds = interfaces.sorted().map(\.rawValue).joined(separator: ", ")
        return kinds.isEmpty ? status.rawValue : "\(status.rawValue) (\(kinds))"
    }
}

/// Tells the pipeline whether the network is usable, so that requests can wait for it instead
/// of failing at once (`Provider.Configuration.waitsForConnectivity`).
///
/// `SystemReachability` asks the platform; `ManualReachability` is set by hand (tests, or an
/// app that knows better). Implementing one:
/// ```swift
/// struct AlwaysOnline: ReachabilityMonitor {
///     var currentPath: NetworkPath { NetworkPath(status: .satisfied, interfaces: [.wired]) }
///     func waitUntilSatisfied() async throws {}
/// }
/// ```
public protocol ReachabilityMonitor: Sendable {
    /// The path as last seen (cheap: the pipeline asks before every attempt).
    var currentPath: NetworkPath { get }

    /// Returns once the path is satisfied (at once when it is).
    ///
    /// - Throws: `CancellationError` as soon as the waiting task is cancelled.
    func waitUntilSatisfied() async throws
}

extension ReachabilityMonitor where Self == SystemReachability {
    /// The platform's view of the network.
    public static var system: SystemReachability { SystemReachability() }
}

/// A monitor whose path is set by hand.
///
/// ```swift
/// let network = ManualReachability(NetworkPath(status: .unsatisfied))
/// // … a request that waits for connectivity is held …
/// network.path = NetworkPath(status: .satisfied, interfaces: [.wifi])   // … and now proceeds
/// ```
public final class ManualReachability: ReachabilityMonitor {
    private let waiters = PathWaiters()
    private let state: Locked<NetworkPath>

    /// Creates a monitor reporting `path`.
    public init(_ path: NetworkPath = NetworkPath(status: .satisfied)) { state = Locked(path) }

    /// The path reported; setting a satisfied path releases every waiting request.
    public var path: NetworkPath {
        get { state.value }
        set {
            state.withLock { $0 = newValue }
            if newValue.status != .unsatisfied { waiters.resumeAll() }
        }
    }

    /// The path set last.
    public var currentPath: NetworkPath { path }

    /// How many tasks wait for the network.
    public var waitingCount: Int { waiters.count }

    /// Returns once at least `count` tasks have started waiting in all (for tests).
    public func waitForWaiters(_ count: Int) async { await waiters.waitForArrivals(count) }

    /// Returns when a path that is not unsatisfied is set.
    public func waitUntilSatisfied() async throws {
        try await waiters.wait { self.state.value.status != .unsatisfied }
    }
}

/// Tasks waiting for a satisfied path, each resumed once: when the path changes, or with
/// `CancellationError` when its task is cancelled.
final class PathWaiters: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var arrivals = 0
        var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    var count: Int { state.withLock { $0.waiters.count } }

    /// Waits unless `isSatisfied()` holds; `onWaiter` runs each time a task starts waiting.
    func wait(isSatisfied: @escaping @Sendable () -> Bool, onWaiter: (@Sendable () -> Void)? = nil) async throws {
        if isSatisfied() { return }
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (registered, arrived) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    if Task.isCancelled { return (false, []) }
                    state.waiters[id] = continuation
                    state.arrivals += 1
                    let count = state.arrivals
                    defer { state.arrivalWaiters.removeAll { $0.count <= count } }
                    return (true, state.arrivalWaiters.filter { $0.count <= count }.map(\.continuation))
                }
                for waiter in arrived { waiter.resume() }
                guard registered else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                // A change that landed before registration is caught by this second look; one
                // that lands after it finds the waiter registered and resumes it.
                if isSatisfied() { resume(id) } else { onWaiter?() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Returns once `count` tasks have started waiting in all.
    func waitForArrivals(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.arrivals >= count { return true }
                state.arrivalWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Resumes every waiter.
    func resumeAll() {
        let all = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in all { waiter.resume() }
    }

    private func resume(_ id: UInt64) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.resume()
    }
}
