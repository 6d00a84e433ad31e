import Foundation
#if canImport(Network)
import Network
#endif

/// The platform's view of the network.
///
/// - On Apple platforms, `NWPathMonitor`'s path: satisfied or not, and the interface types in
///   use (`utun`, `ipsec` and `ppp` interfaces count as VPN).
/// - On Linux, the system's interfaces (`getifaddrs`): the network is usable when an interface
///   other than loopback is up and running with an address that is not link-local; each is
///   classified from `/sys/class/net/<name>`: `wireless` → Wi-Fi, `tun_flags` → VPN, its `type`
///   (1 Ethernet → wired, 772 → loopback, 65534, 768, 776, 778 → VPN, 519 → cellular). Bridges
///   are not counted. The path is read at most once per `pollInterval`, and polled at that
///   interval while a request waits for the network.
/// - Elsewhere, `.unknown` (requests never wait).
public final class SystemReachability: ReachabilityMonitor {
    private struct State {
        var path = NetworkPath.unknown
        var readAt: ContinuousClock.Instant?
        var polling = false
    }

    private let state = Locked(State())
    private let waiters = PathWaiters()
    /// How often the path is read again (Linux).
    public let pollInterval: Duration
    #if canImport(Network)
    private let monitor = Locked<NWPathMonitor?>(nil)
    #endif

    /// Starts watching the network.
    ///
    /// - Parameter pollInterval: on Linux, the longest a path is reused and the polling
    ///   interval while requests wait (at least 10 ms).
    public init(pollInterval: Duration = .seconds(1)) {
        self.pollInterval = max(pollInterval, .milliseconds(10))
        #if canImport(Network)
        let pathMonitor = NWPathMonitor()
        pathMonitor.pathUpdateHandler = { [state, waiters] path in
            let converted = SystemReachability.convert(path)
            state.withLock { $0.path = converted }
            if converted.status != .unsatisfied { waiters.resumeAll() }
        }
        pathMonitor.start(queue: DispatchQueue(label: "Gateway.SystemReachability"))
        monitor.withLock { $0 = pathMonitor }
        #endif
    }

    deinit {
        #if canImport(Network)
        monitor.withLock { $0?.cancel() }
        #endif
    }

    /// The path as last read.
    public var currentPath: NetworkPath {
        #if canImport(Network)
        return state.withLock { $0.path }
        #elseif canImport(Glibc) || canImport(Musl)
        let now = ContinuousClock.now
        if let cached = state.withLock({ state -> NetworkPath? in
            guard let readAt = state.readAt, now - readAt < pollInterval else { return nil }
            return state.path
        }) {
            return cached
        }
        let path = LinuxInterfaces.currentPath()
        state.withLock {
            $0.path = path
            $0.readAt = now
        }
        return path
        #else
        return .unknown
        #endif
    }

    /// Returns once the path is not unsatisfied.
    ///
    /// - Throws: `CancellationError` when cancelled.
    public func waitUntilSatisfied() async throws {
        try await waiters.wait(isSatisfied: { [self] in currentPath.status != .unsatisfied },
                               onWaiter: { [self] in startPolling() })
    }

    /// On Linux, reads the path every `pollInterval` while anyone waits.
    private func startPolling() {
        #if !canImport(Network)
        let start = state.withLock { state -> Bool in
            if state.polling { return false }
            state.polling = true
            return true
        }
        guard start else { return }
        Task { [self] in
            while true {
                try? await Task.sleep(for: pollInterval)
                state.withLock { $0.readAt = nil }
                if currentPath.status != .unsatisfied { waiters.resumeAll() }
                let done = state.withLock { state -> Bool in
                    // Stop only when nobody waits; a waiter registering now starts a new poller.
                    guard waiters.count == 0 else { return false }
                    state.polling = false
                    return true
                }
                if done { return }
            }
        }
        #endif
    }

    #if canImport(Network)
    static func convert(_ path: NWPath) -> NetworkPath {
        var interfaces: Set<NetworkPath.Interface> = []
        for interface in path.availableInterfaces {
            let name = interface.name
            if name.hasPrefix("utun") || name.hasPrefix("ipsec") || name.hasPrefix("ppp") {
                interfaces.insert(.vpn)
                continue
            }
            switch interface.type {
            case .wifi: interfaces.insert(.wifi)
            case .cellular: interfaces.insert(.cellular)
            case .wiredEthernet: interfaces.insert(.wired)
            case .loopback: interfaces.insert(.loopback)
            default: interfaces.insert(.other)
            }
        }
        let status: NetworkPath.Status = switch path.status {
        case .satisfied: .satisfied
        case .unsatisfied, .requiresConnection: .unsatisfied
        @unknown default: .unknown
        }
        return NetworkPath(status: status, interfaces: interfaces)
    }
    #endif
}
