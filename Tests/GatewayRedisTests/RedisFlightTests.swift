import Foundation
import Gateway
@testable import GatewayRedis
import GatewayTestSupport
import Testing

/// Leases on a key among stores sharing one Redis (each store stands for an instance).
@Suite(.requiresRedis, .timeLimit(.minutes(3))) struct RedisFlightTests {
    static func lease(_ flight: CacheFlight) -> (any CacheFlightLease)? {
        if case .lead(let lease) = flight { return lease }
        return nil
    }

    static func entry(_ flight: CacheFlight) -> CacheEntry? {
        if case .follow(let entry) = flight { return entry }
        return nil
    }

    static func isAlone(_ flight: CacheFlight) -> Bool {
        if case .alone = flight { return true }
        return false
    }

    /// Two instances on `server`, each hearing the other's lease ends.
    static func instances(_ server: RedisServer) async throws -> (RedisCacheStore, RedisCacheStore) {
        let first = Fixture.store(server), second = Fixture.store(server)
        #expect(await first.listen(timeout: .seconds(30)))
        #expect(await second.listen(timeout: .seconds(30)))
        return (first, second)
    }

    @Test func oneInstanceLeadsAndAnotherWaitsThenAnswersWithTheStoredEntry() async throws {
        let server = try await RedisServer.start()
        let (first, second) = try await Self.instances(server)
        let key = Fixture.key(1)
        let lease = try #require(Self.lease(await first.flight(for: key, freshAt: Date(), deadline: nil)))
        let waiting = Task { await second.flight(for: key, freshAt: Date(), deadline: nil) }
        await second.waitForFlightWaits(1)
        let entry = Fixture.entry(1)
        #expect(try await first.put(entry))
        await lease.end(stored: true)
        #expect(Self.entry(await waiting.value) == entry)
        let raw = RedisClient(url: server.url, timeout: .seconds(5))
        #expect(try await raw.send(RedisCommand("EXISTS", "test:f:" + key.hex)).integerValue == 0)
    }

    @Test func aHolderThatStoredNothingSendsItsWaitersToTheNetwork() async throws {
        let server = try await RedisServer.start()
        let (first, second) = try await Self.instances(server)
        let key = Fixture.key(1)
        let lease = try #require(Self.lease(await first.flight(for: key, freshAt: Date(), deadline: nil)))
        let waiting = Task { await second.flight(for: key, freshAt: Date(), deadline: nil) }
        await second.waitForFlightWaits(1)
        await lease.end(stored: false)
        #expect(Self.isAlone(await waiting.value))
    }

    @Test func aWaiterTakesOverOnceTheLeaseOfAHolderThatDiedExpires() async throws {
        let server = try await RedisServer.start()
        let store = Fixture.store(server)
        let key = Fixture.key(1)
        let raw = RedisClient(url: server.url, timeout: .seconds(5))
        // A holder that took the lease and died: nothing renews or ends it.
        #expect(try await raw.send(RedisCommand("SET", "test:f:" + key.hex, "dead", "NX", "PX", "300")).text == "OK")
        let lease = Self.lease(await store.flight(for: key, freshAt: Date(), deadline: nil))
        #expect(lease != nil)
        let holder = try await raw.send(RedisCommand("GET", "test:f:" + key.hex)).text
        #expect(holder != nil && holder != "dead")
        await lease?.end(stored: false)
    }

    @Test func onlyTheHoldersTokenEndsTheLease() async throws {
        let server = try await RedisServer.start()
        let store = Fixture.store(server)
        let key = Fixture.key(1)
        let lease = try #require(Self.lease(await store.flight(for: key, freshAt: Date(), deadline: nil)))
        let raw = RedisClient(url: server.url, timeout: .seconds(5))
        let name = "test:f:" + key.hex
        let foreign = RedisScripts.call(RedisScripts.release, keys: [name],
                                        arguments: ["not-the-holder", "test:c:flights", key.hex + " none"])
        #expect(try await raw.send(foreign).integerValue == 0)
        #expect(try await raw.send(RedisCommand("EXISTS", name)).integerValue == 1)
        await lease.end(stored: false)
        #expect(try await raw.send(RedisCommand("EXISTS", name)).integerValue == 0)
    }

    @Test func aWaitEndsAtTheRequestsDeadline() async throws {
        let server = try await RedisServer.start()
        let first = Fixture.store(server), second = Fixture.store(server)
        let key = Fixture.key(1)
        let lease = try #require(Self.lease(await first.flight(for: key, freshAt: Date(), deadline: nil)))
        let flight = await second.flight(for: key, freshAt: Date(), deadline: .now + .milliseconds(200))
        #expect(Self.isAlone(flight))
        await lease.end(stored: false)
    }

    @Test func anInstanceThatTakesTheLeaseAfterTheHolderStoredAnswersWithTheEntry() async throws {
        let server = try await RedisServer.start()
        let first = Fixture.store(server), second = Fixture.store(server)
        let key = Fixture.key(1)
        let lease = try #require(Self.lease(await first.flight(for: key, freshAt: Date(), deadline: nil)))
        let entry = Fixture.entry(1)
        #expect(try await first.put(entry))
        await lease.end(stored: true)
        // The second instance looked the key up before the entry was stored, and asks only now.
        #expect(Self.entry(await second.flight(for: key, freshAt: Date(), deadline: nil)) == entry)
        let raw = RedisClient(url: server.url, timeout: .seconds(5))
        #expect(try await raw.send(RedisCommand("EXISTS", "test:f:" + key.hex)).integerValue == 0)
    }

    @Test func aRequestThatWantsTheNetworkLeadsEvenWhenAFreshEntryWasJustStored() async throws {
        let server = try await RedisServer.start()
        let store = Fixture.store(server)
        let key = Fixture.key(1)
        #expect(try await store.put(Fixture.entry(1)))
        let lease = Self.lease(await store.flight(for: key, freshAt: nil, deadline: nil))
        #expect(lease != nil)
        await lease?.end(stored: false)
    }

    @Test func aWaitEndsWhenRedisGoesAwayRatherThanAtTheLeasesExpiry() async throws {
        let server = try await RedisServer.start()
        let first = Fixture.store(server, flightLease: .seconds(600))
        let second = Fixture.store(server, flightLease: .seconds(600))
        #expect(await second.listen(timeout: .seconds(30)))
        let key = Fixture.key(1)
        let lease = try #require(Self.lease(await first.flight(for: key, freshAt: Date(), deadline: nil)))
        let waiting = Task { await second.flight(for: key, freshAt: Date(), deadline: nil) }
        await second.waitForFlightWaits(1)
        await server.kill()
        #expect(Self.isAlone(await waiting.value))
        await lease.end(stored: false)
    }

    @Test func anUnavailableRedisLeavesEveryInstanceAlone() async throws {
        let server = try await RedisServer.start()
        let log = WarningLog()
        let store = Fixture.store(server, log: log, timeout: .milliseconds(300))
        await server.kill()
        #expect(Self.isAlone(await store.flight(for: Fixture.key(1), freshAt: Date(), deadline: nil)))
        #expect(Self.isAlone(await store.flight(for: Fixture.key(2), freshAt: Date(), deadline: nil)))
        #expect(log.all.count == 1)
    }
}
