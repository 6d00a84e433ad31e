import Foundation
import Gateway
import GatewayTesting
import GatewayTestSupport
import Testing

/// Two application instances in two processes (`GatewayRedisPeer`), each with its own providers
/// and memory layer, on one Redis, calling one upstream that counts its calls.
@Suite(.requiresRedis, .timeLimit(.minutes(3))) struct SharedCacheAcrossProcessesTests {
    /// The upstream: `Track <id>` for every request; requests for `held` wait at `gate`, and
    /// the instance that sent each one is recorded.
    final class Upstream: Sendable {
        let gate = Gate()
        let held: Int
        private let calls = Locked<[(instance: String, id: Int)]>([])
        let server: LoopbackServer

        init(holding held: Int) throws {
            self.held = held
            let gate = gate, calls = calls
            server = try LoopbackServer { request in
                let body = try JSONSerialization.jsonObject(with: request.body) as? [String: Any]
                let id = ((body?["variables"] as? [String: Any])?["id"] as? NSNumber)?.intValue ?? 0
                calls.withLock { $0.append((request.headers["X-Instance"] ?? "?", id)) }
                if id == held { try await gate.wait() }
                return .json(#"{"data":{"track":{"__typename":"Track","id":"\#(id)","title":"Track \#(id)"}}}"#)
            }
        }

        /// How many calls asked for track `id`.
        func calls(for id: Int) -> Int { calls.withLock { $0.filter { $0.id == id }.count } }

        /// The instance of the first call for track `id`.
        func caller(of id: Int) -> String? { calls.withLock { $0.first { $0.id == id }?.instance } }

        var total: Int { calls.withLock { $0.count } }
    }

    @Test func twoProcessesShareOneCacheOneCallAndOneLogoutAndSurviveARedisOutage() async throws {
        let redis = try await RedisServer.start()
        let upstream = try Upstream(holding: 2)
        let url = try upstream.server.url("/api/")
        let first = try await PeerProcess.start(name: "first", redisPort: redis.port, upstream: url)
        let second = try await PeerProcess.start(name: "second", redisPort: redis.port, upstream: url)

        // A query fetched by one is a hit in the other.
        #expect(try await first.fetch(id: 1) == ["miss"])
        #expect(try await second.fetch(id: 1) == ["hit"])
        #expect(upstream.calls(for: 1) == 1)

        // 50 identical requests in flight, 25 on each, make one upstream call.
        async let fromFirst = first.fetch(25, id: 2)
        async let fromSecond = second.fetch(25, id: 2)
        await upstream.gate.waitForArrivals(1)
        let follower = upstream.caller(of: 2) == "first" ? second : first
        #expect(try await follower.send("await-flight-waits 1") == "ok")
        upstream.gate.open()
        let outcomes = try await fromFirst + fromSecond
        #expect(outcomes.count == 50)
        #expect(outcomes.filter { $0 == "miss" }.count == 1)
        #expect(outcomes.allSatisfy { ["miss", "shared", "hit"].contains($0) })
        #expect(upstream.calls(for: 2) == 1)

        // A logout in one purges the user's entries for both, the other's memory layer included.
        #expect(try await first.fetch(user: "alice", id: 3) == ["miss"])
        #expect(try await first.fetch(user: "bob", id: 3) == ["miss"])
        #expect(try await second.fetch(user: "alice", id: 3) == ["hit"])
        #expect(try await second.fetch(user: "bob", id: 3) == ["hit"])
        #expect(try await second.number("memory alice") == 1)
        let heard = try await second.number("removals")
        #expect(try await first.send("logout alice") == "ok")
        #expect(try await second.send("await-removals \(heard + 1)") == "ok")
        #expect(try await second.number("memory alice") == 0)
        #expect(try await second.number("memory bob") == 1)
        #expect(try await second.fetch(user: "alice", id: 3) == ["miss"])
        #expect(try await second.fetch(user: "bob", id: 3) == ["hit"])
        #expect(upstream.calls(for: 3) == 3)

        // Redis stopped: every request succeeds from the network, with one warning per instance.
        await redis.kill()
        for id in 4...5 {
            #expect(try await first.fetch(id: id) == ["miss"])
            #expect(try await second.fetch(id: id) == ["miss"])
        }
        #expect(upstream.calls(for: 4) == 2 && upstream.calls(for: 5) == 2)
        #expect(try await first.number("warnings") == 1)
        #expect(try await second.number("warnings") == 1)

        // Redis back: once the breakers' retry time has come, the cache is used again.
        try await redis.launch()
        // Each instance hears the others again (and, having missed what was said meanwhile, empties
        // its memory and keeps responses in flight from being stored).
        #expect(try await first.send("ready") == "ready")
        #expect(try await second.send("ready") == "ready")
        #expect(try await first.send("advance 31") == "ok")
        #expect(try await second.send("advance 31") == "ok")
        #expect(try await first.fetch(id: 6) == ["miss"])
        #expect(try await second.fetch(id: 6) == ["hit"])
        #expect(upstream.calls(for: 6) == 1)
        #expect(try await first.number("warnings") == 1)
        #expect(try await second.number("warnings") == 1)
        _ = try? await first.send("quit")
        _ = try? await second.send("quit")
    }

    @Test func aWaitingInstanceTakesOverOnceTheLeaseOfAnInstanceThatDiedExpires() async throws {
        let redis = try await RedisServer.start()
        let upstream = try Upstream(holding: 7)
        let url = try upstream.server.url("/api/")
        let doomed = try await PeerProcess.start(name: "doomed", redisPort: redis.port, upstream: url,
                                                 leaseMilliseconds: 2000)
        let survivor = try await PeerProcess.start(name: "survivor", redisPort: redis.port, upstream: url,
                                                   leaseMilliseconds: 2000)
        // The doomed instance takes the lease and its call is held upstream.
        let lost = Task { try await doomed.fetch(id: 7) }
        await upstream.gate.waitForArrivals(1)
        #expect(upstream.caller(of: 7) == "doomed")
        async let taken = survivor.fetch(id: 7)
        #expect(try await survivor.send("await-flight-waits 1") == "ok")
        doomed.kill()
        await #expect(throws: (any Error).self) { try await lost.value }
        // Its lease expires unrenewed; the survivor takes over and calls upstream itself.
        upstream.gate.open()
        #expect(try await taken == ["miss"])
        #expect(upstream.calls(for: 7) == 2)
        _ = try? await survivor.send("quit")
    }
}
