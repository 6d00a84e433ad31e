import Foundation

/// Step 7's connectivity check (see `Pipeline`).
extension Pipeline {
    /// With a reachability monitor: records the path in the metrics and, when the network is
    /// unusable and the request does not go to this machine, fails at once or waits until it
    /// is usable (bounded by the deadline, or by the request's timeout when it has none).
    func awaitConnectivity(_ monitor: any ReachabilityMonitor, _ request: HTTPRequest, _ call: inout Call)
        async throws
    {
        let path = monitor.currentPath
        call.metrics.network = path
        guard path.status == .unsatisfied, !Self.isLoopback(request.url) else { return }
        let unreachable = "the network is not usable (no interface but loopback is up)"
        guard call.waitsForConnectivity else {
            throw GatewayError(
                .transport, unreachable,
                fix: "connect to a network, or let requests wait with Configuration.waitsForConnectivity",
                request: request, underlying: URLError(.notConnectedToInternet))
        }
        let limit: Duration? = call.context.deadline.map { $0 - clock.now } ?? request.timeout
        let waiting = Stopwatch.start()
        let connected: Bool
        do {
            connected = try await Self.wait(for: monitor, atMost: limit, clock: clock)
        } catch {
            call.metrics.waitingForConnectivity += waiting.elapsed
            throw error
        }
        call.metrics.waitingForConnectivity += waiting.elapsed
        call.metrics.network = monitor.currentPath
        guard connected else {
            throw GatewayError(
                .timeout, unreachable + ", and it did not come back before the call's deadline",
                fix: "connect to a network, or raise the request's deadline", request: request,
                underlying: URLError(.notConnectedToInternet))
        }
    }

    /// Waits until `monitor` reports a usable network (`true`) or `limit` passes (`false`).
    private static func wait(for monitor: any ReachabilityMonitor, atMost limit: Duration?, clock: any TimeSource)
        async throws -> Bool
    {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await monitor.waitUntilSatisfied()
                return true
            }
            if let limit {
                group.addTask {
                    if limit > .zero { try await clock.sleep(for: limit) }
                    return false
                }
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Whether the URL names this machine: `localhost`, 127.0.0.0/8 or `::1`.
    static func isLoopback(_ url: URL) -> Bool {
        guard let host = url.host?.lowercased() else { return false }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if bare == "localhost" || bare.hasSuffix(".localhost") || bare == "::1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127" && octets.allSatisfy { UInt8($0) != nil }
    }
}
