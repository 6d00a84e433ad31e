import Foundation
import Gateway
import GatewayTesting

/// Helpers for the loopback server's tests.
enum LoopbackTesting {
    /// Waits for the gate, or fails after `limit` so that a broken server fails the test
    /// instead of hanging it. The limit is a safety net, not a synchronisation.
    static func wait(for gate: LoopbackGate, limit: Duration = .seconds(20)) async throws {
        let opened = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await gate.wait()
                return gate.isOpen
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        guard opened else { throw RawHTTPConnection.Failure(description: "the gate did not open within \(limit)") }
    }
}

/// Counts events and opens a gate when the count reaches a target.
final class CountingGate: Sendable {
    let gate = LoopbackGate()
    private let target: Int
    private let count = Locked(0)

    init(target: Int) { self.target = target }

    func arrive() {
        let arrived = count.withLock { count in
            count += 1
            return count
        }
        if arrived >= target { gate.open() }
    }
}
