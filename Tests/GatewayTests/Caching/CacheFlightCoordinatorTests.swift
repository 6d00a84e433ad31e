import Foundation
@testable import Gateway
import GatewayTesting
import GraphQLLanguage
import Testing

/// A memory store whose coordinator answers as a test scripts it, standing in for the other
/// instances of a shared store; it records the leases it handed out and how they ended.
final class ScriptedFlightStore: CacheStore, CacheFlightCoordinator {
    final class Lease: CacheFlightLease {
        let store: ScriptedFlightStore
        init(store: ScriptedFlightStore) { self.store = store }
        func end(stored: Bool) async {
            let entries = await store.memory.list(.all, includeBodies: false).count
            store.state.withLock { $0.ends.append((stored, entries)) }
        }
    }

    struct State {
        var asked = 0
        /// The `freshAt` of each question.
        var freshAt: [Date?] = []
        /// Each ended lease: whether it said an entry was stored, and how many entries the store held then.
        var ends: [(stored: Bool, entries: Int)] = []
    }

    let memory = MemoryCacheStore()
    let state = Locked(State())
    private let answer: @Sendable (ScriptedFlightStore, CacheKey, Date?) -> CacheFlight

    init(answer: @escaping @Sendable (ScriptedFlightStore, CacheKey, Date?) -> CacheFlight) {
        self.answer = answer
    }

    var flightCoordinator: (any CacheFlightCoordinator)? { self }

    func flight(for key: CacheKey, freshAt now: Date?, deadline: ContinuousClock.Instant?) async -> CacheFlight {
        state.withLock { state in
            state.asked += 1
            state.freshAt.append(now)
        }
        return answer(self, key, now)
    }

    var byteLimit: Int { memory.byteLimit }
    func get(_ key: CacheKey, now: Date) async throws -> CacheEntry? { await memory.get(key, now: now) }
    func put(_ entry: CacheEntry) async throws -> Bool { await memory.put(entry) }
    func touch(_ key: CacheKey, now: Date, stale: Bool) async throws { await memory.touch(key, now: now, stale: stale) }
    func remove(_ selection: CacheSelection) async throws -> Int { await memory.remove(selection) }
    func list(_ selection: CacheSelection, includeBodies: Bool) async throws -> [CacheRecord] {
        await memory.list(selection, includeBodies: includeBodies)
    }
    func statistics() async throws -> CacheStatistics { await memory.statistics() }
}

@Suite struct CacheFlightCoordinatorTests {
    static func elsewhere(_ key: CacheKey, now: Date) -> CacheEntry {
        CacheEntry(key: key, headers: ["Content-Type": "application/json"],
                   body: Data(#"{"data":{"track":{"__typename":"Track","id":"t1","title":"Elsewhere"}}}"#.utf8),
                   storedAt: now, expiresAt: now.addingTimeInterval(300))
    }

    @Test func aRequestFollowingAnotherInstanceAnswersWithItsEntryAndSendsNothing() async throws {
        let store = ScriptedFlightStore { _, key, now in .follow(Self.elsewhere(key, now: now ?? Date())) }
        let setup = CachedProvider(store: store)
        let response = try await setup.provider.fetch(try CacheOperations.getTrack(), variables: ["id": "t1"],
                                                      as: JSONValue.self)
        #expect(response.data["track"]?["title"] == "Elsewhere")
        #expect(response.cacheOutcome == .shared)
        #expect(setup.networkCalls == 0)
        #expect(try await store.list(.all, includeBodies: false).isEmpty, "the other instance stored it")
    }

    @Test func aLeadingRequestStoresItsResponseAndThenEndsItsLeaseSayingSo() async throws {
        let store = ScriptedFlightStore { store, _, _ in .lead(ScriptedFlightStore.Lease(store: store)) }
        let setup = CachedProvider(store: store)
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: CacheOperations.track("t1", title: "One")))
        let response = try await setup.provider.fetch(try CacheOperations.getTrack(), variables: ["id": "t1"],
                                                      as: JSONValue.self)
        #expect(response.cacheOutcome == .miss)
        #expect(setup.networkCalls == 1)
        let ends = store.state.withLock { $0.ends }
        #expect(ends.map(\.stored) == [true])
        #expect(ends.map(\.entries) == [1])
    }

    @Test func aLeadingRequestWhoseResponseIsNotStoredEndsItsLeaseWithNothingStored() async throws {
        let store = ScriptedFlightStore { store, _, _ in .lead(ScriptedFlightStore.Lease(store: store)) }
        let setup = CachedProvider(store: store)
        setup.stub.onGraphQL("GetTrack", reply: .json(
            JSONValue.object(["data": CacheOperations.track("t1", title: "One")]).serialized(),
            headers: ["Cache-Control": "no-store"]))
        _ = try await setup.provider.fetch(try CacheOperations.getTrack(), variables: ["id": "t1"], as: JSONValue.self)
        #expect(store.state.withLock { $0.ends.map(\.stored) } == [false])
    }

    @Test func aLeadingRequestThatFailsEndsItsLeaseWithNothingStored() async throws {
        let store = ScriptedFlightStore { store, _, _ in .lead(ScriptedFlightStore.Lease(store: store)) }
        let setup = CachedProvider(store: store)
        setup.stub.onGraphQL("GetTrack", reply: .status(503))
        await #expect(throws: GatewayError.self) {
            try await setup.provider.fetch(try CacheOperations.getTrack(), variables: ["id": "t1"], as: JSONValue.self)
        }
        #expect(store.state.withLock { $0.ends.map(\.stored) } == [false])
    }

    @Test func identicalRequestsOnOneInstanceAskTheCoordinatorOnce() async throws {
        let store = ScriptedFlightStore { store, _, _ in .lead(ScriptedFlightStore.Lease(store: store)) }
        let setup = CachedProvider(store: store)
        let gate = Gate()
        setup.stub.onGraphQL("GetTrack", reply: StubReply.graphQL(data: CacheOperations.track("t1", title: "One"))
            .held(by: gate))
        let operation = try CacheOperations.getTrack()
        let key = try GraphQLRequest<JSONValue>(operation: operation, variables: ["id": .string("t1")])
            .cacheKey(baseURL: testBaseURL, partition: .anonymous)
        let tasks = (0..<10).map { _ in
            Task { try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self) }
        }
        while setup.cache.sharers(of: key) < 10 { await Task.yield() }
        gate.open()
        for task in tasks { _ = try await task.value }
        #expect(store.state.withLock { $0.asked } == 1)
        #expect(store.state.withLock { $0.ends.map(\.stored) } == [true])
    }

    @Test func onlyACacheFirstRequestMayBeAnsweredByAnEntryStoredBeforeItTookTheLease() async throws {
        let store = ScriptedFlightStore { store, _, _ in .lead(ScriptedFlightStore.Lease(store: store)) }
        let setup = CachedProvider(store: store)
        setup.stub.onGraphQL("GetTrack", reply: .graphQL(data: CacheOperations.track("t1", title: "One")))
        let operation = try CacheOperations.getTrack()
        _ = try await setup.provider.fetch(
            try GraphQLRequest<JSONValue>(operation: operation, variables: ["id": .string("t1")])
                .cachePolicy(.networkFirst))
        _ = try await setup.provider.fetch(
            try GraphQLRequest<JSONValue>(operation: operation, variables: ["id": .string("t2")]))
        #expect(store.state.withLock { $0.freshAt } == [nil, setup.clock.now])
    }

    @Test func aStoreWithoutACoordinatorAndALayeredStoreOverOneSayWhoCoordinates() {
        let coordinated = ScriptedFlightStore { _, _, _ in .alone }
        #expect(MemoryCacheStore().flightCoordinator == nil)
        #expect(LayeredCacheStore(back: MemoryCacheStore()).flightCoordinator == nil)
        #expect(LayeredCacheStore(back: coordinated).flightCoordinator is ScriptedFlightStore)
    }
}

/// A memory store that other instances share, as far as the test tells it: `removedElsewhere`
/// stands for another instance's removal.
final class SimulatedSharedStore: SharedCacheStore {
    let memory = MemoryCacheStore()
    private let observers = Locked<[@Sendable (SharedCacheRemoval) -> Void]>([])

    func observeRemovals(_ observer: @escaping @Sendable (SharedCacheRemoval) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    /// Another instance removed `selection` from the shared store.
    func removedElsewhere(_ selection: CacheSelection) async {
        _ = await memory.remove(selection)
        for observer in observers.value { observer(.removed(selection)) }
    }

    /// The store's connection to the others dropped and came back: removals may have been missed.
    func reconnected() {
        for observer in observers.value { observer(.possiblyMissed) }
    }

    var byteLimit: Int { memory.byteLimit }
    func get(_ key: CacheKey, now: Date) async throws -> CacheEntry? { await memory.get(key, now: now) }
    func put(_ entry: CacheEntry) async throws -> Bool { await memory.put(entry) }
    func touch(_ key: CacheKey, now: Date, stale: Bool) async throws { await memory.touch(key, now: now, stale: stale) }
    func remove(_ selection: CacheSelection) async throws -> Int { await memory.remove(selection) }
    func list(_ selection: CacheSelection, includeBodies: Bool) async throws -> [CacheRecord] {
        await memory.list(selection, includeBodies: includeBodies)
    }
    func statistics() async throws -> CacheStatistics { await memory.statistics() }
}

@Suite struct LayeredSharedStoreTests {
    static func entry(_ id: String, user: String) throws -> CacheEntry {
        let key = try GraphQLRequest<JSONValue>(operation: try CacheOperations.getTrack(), variables: ["id": .string(id)])
            .cacheKey(baseURL: testBaseURL, partition: .subject(user))
        return CacheFlightCoordinatorTests.elsewhere(key, now: CacheFixtures.now)
    }

    @Test func anotherInstancesRemovalLeavesTheMemoryInFront() async throws {
        let shared = SimulatedSharedStore()
        let layered = LayeredCacheStore(back: shared)
        let alice = try Self.entry("t1", user: "alice"), bob = try Self.entry("t1", user: "bob")
        #expect(try await layered.put(alice))
        #expect(try await layered.put(bob))
        await shared.removedElsewhere(.partition(.subject("alice")))
        #expect(layered.memory.getNow(alice.key, now: CacheFixtures.now) == nil)
        #expect(layered.memory.getNow(bob.key, now: CacheFixtures.now) == bob)
        #expect(try await layered.get(alice.key, now: CacheFixtures.now) == nil)
    }

    @Test func everythingLeavesMemoryWhenRemovalsMayHaveBeenMissed() async throws {
        let shared = SimulatedSharedStore()
        let layered = LayeredCacheStore(back: shared)
        let alice = try Self.entry("t1", user: "alice")
        #expect(try await layered.put(alice))
        shared.reconnected()
        #expect(layered.memory.getNow(alice.key, now: CacheFixtures.now) == nil)
        #expect(try await layered.get(alice.key, now: CacheFixtures.now) == alice, "the shared store still holds it")
    }

    @Test func aResponseWhoseRequestBeganBeforeARemovalElsewhereIsNotStored() async throws {
        let shared = SimulatedSharedStore()
        let setup = CachedProvider(store: LayeredCacheStore(back: shared))
        let gate = Gate()
        setup.stub.onGraphQL("GetTrack", reply: StubReply.graphQL(data: CacheOperations.track("t1", title: "One"))
            .held(by: gate))
        let operation = try CacheOperations.getTrack()
        let request = Task { try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self) }
        await gate.waitForArrivals(1)
        await shared.removedElsewhere(.partition(.anonymous))
        gate.open()
        #expect(try await request.value.cacheOutcome == .miss)
        #expect(try await shared.list(.all, includeBodies: false).isEmpty)
        _ = try await setup.provider.fetch(operation, variables: ["id": "t1"], as: JSONValue.self)
        #expect(try await shared.list(.all, includeBodies: false).count == 1, "a request begun after it is stored")
    }
}
