import Foundation
@testable import GatewayRedis
import GatewayTestSupport
import Testing

/// Calls that share one connection: they take turns in order, each gets its own replies, and a
/// cancelled call leaves the connection usable for the next.
@Suite(.requiresRedis) struct RedisClientConcurrencyTests {
    @Test func concurrentCallsOnOneConnectionEachGetTheirOwnReply() async throws {
        let server = try await RedisServer.start()
        let client = RedisClient(url: server.url, poolSize: 1, timeout: .seconds(10))
        let counts = try await withThrowingTaskGroup(of: (Int, Int64?, String?).self) { group in
            for index in 0..<64 {
                group.addTask {
                    let replies = try await client.pipeline([
                        RedisCommand("INCR", "counter"), RedisCommand("SET", "key-\(index)", "value-\(index)"),
                        RedisCommand("GET", "key-\(index)"),
                    ])
                    return (index, replies[0].integerValue, replies[2].text)
                }
            }
            var seen: [(Int, Int64?, String?)] = []
            for try await result in group { seen.append(result) }
            return seen
        }
        #expect(counts.allSatisfy { $0.2 == "value-\($0.0)" })
        #expect(Set(counts.compactMap(\.1)) == Set(1...64))
    }

    @Test func aCallCancelledWhileWaitingForItsReplyEndsAndTheConnectionIsMadeAgain() async throws {
        let server = try await RedisServer.start()
        let client = RedisClient(url: server.url, poolSize: 1, timeout: .seconds(60))
        #expect(try await client.send(RedisCommand("PING")) == .simpleString("PONG"))
        // BLPOP with no timeout waits until the list gets an element, which never happens here:
        // only the cancellation can end the call before its 60 s deadline.
        let blocked = Task { try await client.send(RedisCommand("BLPOP", "never-filled", "0")) }
        let observer = RedisClient(url: server.url, poolSize: 1, timeout: .seconds(5))
        try await waitUntilBlocked(clients: 1, observer: observer)
        blocked.cancel()
        await #expect(throws: CancellationError.self) { try await blocked.value }
        #expect(try await client.send(RedisCommand("PING")) == .simpleString("PONG"))
    }

    @Test func aCancelledCallWaitingForItsTurnLeavesTheLineAndTheOthersGoOn() async throws {
        let server = try await RedisServer.start()
        let client = RedisClient(url: server.url, poolSize: 1, timeout: .seconds(60))
        let first = Task { try await client.send(RedisCommand("BLPOP", "list", "0")) }
        let observer = RedisClient(url: server.url, poolSize: 1, timeout: .seconds(5))
        try await waitUntilBlocked(clients: 1, observer: observer)
        let waiting = Task { try await client.send(RedisCommand("GET", "anything")) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        _ = try await observer.send(RedisCommand("RPUSH", "list", "element"))
        #expect(try await first.value.arrayValue?.last?.text == "element")
        #expect(try await client.send(RedisCommand("PING")) == .simpleString("PONG"))
    }

    @Test func callsQueuedBehindABusyConnectionRunWhileTheirTasksCannot() async throws {
        let server = try await RedisServer.start()
        let client = RedisClient(url: server.url, poolSize: 1, timeout: .seconds(60))
        #expect(try await client.send(RedisCommand("PING")) == .simpleString("PONG"))
        let first = Task { try await client.send(RedisCommand("BLPOP", "list", "0")) }
        let observer = RedisClient(url: server.url, poolSize: 1, timeout: .seconds(5))
        try await waitUntilBlocked(clients: 1, observer: observer)
        let gate = GatedExecutor()
        let queued = (0..<8).map { _ in
            Task(executorPreference: gate) { try await client.send(RedisCommand("INCR", "counter")) }
        }
        try await waitUntil("the eight calls are in line") { client.load == 9 }
        // From now on the queued calls' tasks cannot run: only the connection's thread can move the line.
        gate.shut()
        _ = try await observer.send(RedisCommand("RPUSH", "list", "element"))
        #expect(try await first.value.arrayValue?.last?.text == "element")
        try await waitUntil("Redis counted the eight calls") {
            try await observer.send(RedisCommand("GET", "counter")).text == "8"
        }
        gate.open()
        var counts: [Int64] = []
        for call in queued { counts.append(try #require(try await call.value.integerValue)) }
        #expect(counts == Array(1...8), "the calls ran in the order they came")
    }

    /// Returns once `condition` holds, asking at most 100,000 times.
    private func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
        for _ in 0..<100_000 {
            if try await condition() { return }
            await Task.yield()
        }
        Issue.record("never: \(what)")
    }

    /// Returns once Redis reports `clients` connections blocked in a command (`INFO clients`),
    /// asking at most 100,000 times.
    private func waitUntilBlocked(clients: Int, observer: RedisClient) async throws {
        for _ in 0..<100_000 {
            let info = try await observer.send(RedisCommand("INFO", "clients")).text ?? ""
            if info.contains("blocked_clients:\(clients)\r") { return }
            await Task.yield()
        }
        Issue.record("Redis never reported \(clients) blocked clients")
    }
}
