import Foundation
import Gateway
@testable import GatewaySQLite
import GatewayTestSupport
import GatewayTesting
import GraphQLLanguage
import Testing

/// Damaged bytes inside a stored response: `PRAGMA integrity_check` cannot see them, the entry's
/// checksum does. SQLite waits for the disk: the suite runs off the cooperative pool.
@Suite(.offPool) struct SQLiteChecksumTests {
    struct TrackData: Decodable, Sendable {
        struct Track: Decodable, Sendable {
            let id: String
            let title: String
        }
        let track: Track
    }

    /// A provider whose response cache keeps its entries in `store`, over a stub answering
    /// `GetTrack` with `replies`.
    struct Setup {
        let stub = StubTransport()
        let provider: Provider
        let store: any CacheStore

        init(_ store: any CacheStore, warnings: WarningLog, replies: [StubReply]) throws {
            stub.on(.graphQL("GetTrack"), reply: replies)
            self.store = store
            let cache = ResponseCache(store: store, onWarning: warnings.handler)
            provider = Provider(baseURL: try #require(URL(string: "https://api.example.com/")), transport: stub) {
                config in
                config.deadline = nil  // a real-time deadline would measure the suite's queue
                config.cache = cache
                config.retryPolicy = .none
            }
        }

        func fetch<Value: Decodable & Sendable>(as type: Value.Type, policy: CachePolicy = .cacheFirst)
            async throws -> GraphQLResponse<Value>
        {
            try await provider.fetch(
                try GraphQLOperation("query GetTrack($id: ID!) { track(id: $id) { __typename id title } }"),
                variables: ["id": "t1"], as: type, cachePolicy: policy)
        }
    }

    static func track(_ title: JSONValue) -> StubReply {
        .graphQL(data: ["track": ["__typename": "Track", "id": "t1", "title": title]])
    }

    /// A database at `path` holding the answer to `GetTrack` with the title `Marker-One`, closed,
    /// with its write-ahead log folded into the file.
    static func makeDatabase(_ path: String) async throws {
        let store = try SQLiteCacheStore(path: path)
        let setup = try Setup(store, warnings: WarningLog(), replies: [track("Marker-One")])
        _ = try await setup.fetch(as: JSONValue.self)
        try await store.vacuum()
    }

    /// Overwrites `Marker-One` in the database file with `replacement` (as many bytes).
    static func damage(_ path: String, with replacement: String) throws {
        var bytes = try #require(FileManager.default.contents(atPath: path))
        let marker = Data("Marker-One".utf8)
        let range = try #require(bytes.range(of: marker))
        #expect(bytes.range(of: marker, in: range.upperBound..<bytes.endIndex) == nil)
        bytes.replaceSubrange(range, with: Data(replacement.utf8))
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    /// Still valid JSON (only the checksum can tell), and no longer JSON.
    @Test(arguments: ["Marker-Onf", "Marker\"One"])
    func aDamagedBodyIsFetchedAgainWithOneWarningAndReplaced(damage: String) async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("cache.sqlite")
        try await Self.makeDatabase(path)
        try Self.damage(path, with: damage)
        let problems = try await SQLiteCacheStore(path: path, mode: .readOnly).verify()
        #expect(problems.count == 1)
        #expect(problems.first?.contains("checksum") == true, "\(problems)")

        let warnings = WarningLog()
        let store = try SQLiteCacheStore(path: path, onWarning: warnings.handler)
        let setup = try Setup(store, warnings: warnings, replies: [Self.track("Fresh")])
        let fetched = try await setup.fetch(as: JSONValue.self)
        #expect(fetched.data["track"]?["title"] == "Fresh")
        #expect(fetched.cacheOutcome == .miss)
        #expect(setup.stub.requests.count == 1)
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.message.contains("checksum") == true)
        let stored = try #require(try await store.list().first)
        #expect(String(decoding: stored.entry.body, as: UTF8.self).contains("Fresh"))
        #expect(try await store.verify().isEmpty)
        #expect(try await setup.fetch(as: JSONValue.self).cacheOutcome == .hit)
        #expect(warnings.all.count == 1)
    }

    @Test func underCacheOnlyADamagedBodyIsAMiss() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("cache.sqlite")
        try await Self.makeDatabase(path)
        try Self.damage(path, with: "Marker-Onf")

        let warnings = WarningLog()
        let store = try SQLiteCacheStore(path: path, onWarning: warnings.handler)
        let setup = try Setup(store, warnings: warnings, replies: [Self.track("Fresh")])
        let error = await #expect(throws: GatewayError.self) {
            try await setup.fetch(as: JSONValue.self, policy: .cacheOnly)
        }
        #expect(error?.kind == .cacheMiss)
        #expect(setup.stub.requests.isEmpty)
        #expect(warnings.all.count == 1)
        #expect(try await store.list().isEmpty)
    }

    @Test(arguments: [StoreKind.sqlite, StoreKind.layered])
    func aBodyThatNoLongerDecodesIsFetchedAgainWithOneWarningAndReplaced(kind: StoreKind) async throws {
        let folder = try TemporaryFolder()
        let warnings = WarningLog()
        let setup = try Setup(try kind.make(in: folder), warnings: warnings,
                              replies: [Self.track(.null), Self.track("Titled")])
        _ = try await setup.fetch(as: JSONValue.self)

        let typed = try await setup.fetch(as: TrackData.self)
        #expect(typed.data.track.title == "Titled")
        #expect(typed.cacheOutcome == .miss)
        #expect(setup.stub.requests.count == 2)
        #expect(warnings.all.count == 1)
        let stored = try #require(try await setup.store.list().first)
        #expect(String(decoding: stored.entry.body, as: UTF8.self).contains("Titled"))
        #expect(try await setup.fetch(as: TrackData.self).cacheOutcome == .hit)
        #expect(warnings.all.count == 1)
    }

    @Test func aDatabaseOfTheFormerSchemaLosesItsEntriesAndGainsChecksums() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("cache.sqlite")
        do {
            let connection = try SQLiteConnection(path: path, readOnly: false)
            try connection.execute(SQLiteSchema.migrations[0])
            try connection.execute("PRAGMA application_id = \(SQLiteSchema.applicationID)")
            try connection.execute("PRAGMA user_version = 1")
            try connection.execute("""
                INSERT INTO entries(key, kind, name, stats_name, endpoint, status, headers, body, size, stored_at,
                    last_access)
                VALUES ('\(Fixture.key(1).hex)', 'graphql', 'Track', 'Track', '\(Fixture.endpoint)', 200, '',
                    CAST('{"data":{}}' AS BLOB), 300, 0, 0)
                """)
            connection.close()
        }
        do {
            // Read-only, the old entries are listed but never served (they have no checksum).
            let reader = try SQLiteCacheStore(path: path, mode: .readOnly)
            #expect(try await reader.list(.all, includeBodies: false).count == 1)
            #expect(try await reader.get(Fixture.key(1), now: Fixture.now) == nil)
        }

        let warnings = WarningLog()
        let store = try SQLiteCacheStore(path: path, onWarning: warnings.handler)
        #expect(try await store.list().isEmpty)
        #expect(try await store.get(Fixture.key(1), now: Fixture.now) == nil)
        try await store.put(Fixture.entry(1))
        #expect(try await store.get(Fixture.key(1), now: Fixture.now) == Fixture.entry(1))
        #expect(try await store.verify().isEmpty)
        #expect(warnings.all.isEmpty)
        let check = try SQLiteConnection(path: path, readOnly: true)
        defer { check.close() }
        #expect(try check.integer("PRAGMA user_version") == SQLiteSchema.latestVersion)
        #expect(SQLiteSchema.latestVersion == SQLiteSchema.checksumVersion)
    }
}
