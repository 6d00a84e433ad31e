import Foundation
import Gateway
import GatewaySQLite
import GatewayTestSupport
import GatewayTesting
import GraphQLLanguage
import Testing
@testable import GatewayCLI

/// Every `gateway cache` verb against a database built through a `Provider` with the SQLite
/// cache, each with its `--json` output parsed back. SQLite waits for the disk: the suite runs
/// off the cooperative pool.
@Suite(.offPool) struct ProviderBuiltCacheTests {
    @Test func listShowsWhatTheProviderStored() async throws {
        let (folder, path) = try await ProviderCacheFixture.filledDatabase()
        defer { _ = folder }
        let run = await runCache(["list", "--json"], database: path)
        #expect(run.status == 0, "\(run.transcript)")
        let items = try #require(try run.json().arrayValue)
        #expect(items.count == 5)
        let key42 = try ProviderCacheFixture.getTrackKey("42").hex
        let track42 = try #require(items.first { $0["key"]?.stringValue == key42 })
        #expect(track42["operationName"] == "GetTrack")
        #expect(track42["partition"] == "user-1")
        #expect(track42["hits"]?.intValue == 1)
        #expect(track42["ageSeconds"]?.intValue == 180)
        #expect(track42["expiresInSeconds"]?.intValue == 120)
        #expect(track42["tags"] == ["type:Album", "type:Track"])
        let rest = items.filter { $0["kind"] == "rest" }.compactMap { $0["name"]?.stringValue }.sorted()
        #expect(rest == ["https://api.example.com/notes", "https://api.example.com/tracks?limit=10&offset=0"])
        let table = await runCache(["list", "--operation", "GetTrack"], database: path)
        #expect(table.status == 0)
        #expect(table.lines.filter { $0.contains("GetTrack") }.count == 2, "\(table.stdout)")
    }

    @Test func showPrintsTheComponentsAndTheResponseWithSecretsRedacted() async throws {
        let (folder, path) = try await ProviderCacheFixture.filledDatabase()
        defer { _ = folder }
        let me = try #require(try await runCache(["list", "--json", "--operation", "Me"], database: path).json()
            .arrayValue?.first?["key"]?.stringValue)
        for json in [false, true] {
            let run = await runCache(["show", String(me.prefix(10))] + (json ? ["--json"] : []), database: path)
            #expect(run.status == 0, "\(run.transcript)")
            #expect(!run.stdout.contains(ProviderCacheFixture.secret))
            #expect(run.stdout.contains("Ada"))
            if json {
                let shown = try run.json()
                #expect(shown["key"]?.stringValue == me)
                #expect(shown["body"]?["data"]?["me"]?["access_token"] == "<redacted>")
            } else {
                #expect(run.stdout.contains("query Me"))
            }
        }
    }

    @Test func explainRecomputesTheDigestOfAProviderKey() async throws {
        let (folder, path) = try await ProviderCacheFixture.filledDatabase()
        defer { _ = folder }
        let key = try ProviderCacheFixture.getTrackKey("42")
        let json = try await runCache(["explain", "--json", String(key.hex.prefix(12))], database: path).json()
        #expect(json["digestMatches"]?.boolValue == true)
        let names = try #require(json["components"]?.arrayValue).compactMap { $0["name"]?.stringValue }
        #expect(names == key.explain().map(\.name))
        let text = await runCache(["explain", key.hex], database: path)
        #expect(text.stdout.contains(#"variables      {"id":"42"}"#), "\(text.stdout)")
    }

    @Test func diffOfTwoEntriesOfOneOperationNamesTheVariables() async throws {
        let (folder, path) = try await ProviderCacheFixture.filledDatabase()
        defer { _ = folder }
        let a = try ProviderCacheFixture.getTrackKey("42").hex
        let b = try ProviderCacheFixture.getTrackKey("43").hex
        let run = await runCache(["diff", a, b], database: path)
        #expect(run.stdout.contains("The keys differ in: variables (id)."), "\(run.transcript)")
        let json = try await runCache(["diff", "--json", a, b], database: path).json()
        #expect(json["differences"]?.arrayValue?.first?["variables"] == ["id"])
    }

    @Test func statsCountWhatTheProviderDid() async throws {
        let (folder, path) = try await ProviderCacheFixture.filledDatabase()
        defer { _ = folder }
        let json = try await runCache(["stats", "--json"], database: path).json()
        #expect(json["entries"]?.intValue == 5)
        #expect(json["hits"]?.intValue == 1)
        #expect(json["misses"]?.intValue == 6)
        #expect(json["writes"]?.intValue == 5)
        let getTrack = try #require(json["operations"]?.arrayValue?.first { $0["name"] == "GetTrack" })
        #expect(getTrack["hits"]?.intValue == 1 && getTrack["misses"]?.intValue == 3)
        let text = await runCache(["stats"], database: path)
        #expect(text.status == 0 && text.stdout.contains("GetTrack"))
    }

    @Test func exportWritesEveryEntryAsOneJSONLineWithoutSecrets() async throws {
        let (folder, path) = try await ProviderCacheFixture.filledDatabase()
        defer { _ = folder }
        let run = await runCache(["export"], database: path)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(!run.stdout.contains(ProviderCacheFixture.secret))
        let lines = try run.lines.map { try JSONValue(parsing: $0) }
        #expect(lines.count == 5)
    }

    @Test func evictPurgeVacuumAndVerifyChangeOnlyWhatTheySay() async throws {
        let (folder, path) = try await ProviderCacheFixture.filledDatabase()
        defer { _ = folder }
        #expect(try await runCache(["evict", "--operation", "GetTrack", "--json"], database: path).json()
            == ["removed": 2])
        #expect(try await runCache(["evict", "--tag", "type:User", "--json"], database: path).json() == ["removed": 1])
        #expect(try await runCache(["list", "--json"], database: path).json().arrayValue?.count == 2)
        let verify = await runCache(["verify", "--json"], database: path)
        #expect(verify.status == 0, "\(verify.transcript)")
        #expect(await runCache(["vacuum"], database: path).status == 0)
        #expect(await runCache(["purge"], database: path).status == 0)
        #expect(try await runCache(["list", "--json"], database: path).json() == [])
        #expect(await runCache(["verify"], database: path).status == 0)
    }

    @Test func readVerbsSucceedWhileAProviderWritesTheDatabase() async throws {
        let folder = try CacheTestFolder()
        let path = folder.file("cache.sqlite")
        try await ProviderCacheFixture.fill(path)
        let store = try SQLiteCacheStore(path: path)
        let stub = StubTransport()
        stub.onGraphQL("GetTrack", reply: .graphQL(data: ProviderCacheFixture.trackData("w")))
        let provider = Provider(baseURL: try #require(URL(string: ProviderCacheFixture.baseURL)), transport: stub) {
            config in
            config.cache = ResponseCache(store: store, defaultPolicy: .networkOnly)
        }
        let operation = try ProviderCacheFixture.getTrack()
        let writer = Task {
            for index in 0..<300 {
                _ = try await provider.fetch(operation, variables: ["id": .string("w\(index)")], as: JSONValue.self)
            }
        }
        for verb in [["list", "--json"], ["stats", "--json"], ["export"], ["verify"]] {
            let run = await runCache(verb, database: path)
            #expect(run.status == 0, "\(verb): \(run.transcript)")
        }
        try await writer.value
        try await store.flush()
        #expect(try await runCache(["list", "--json"], database: path).json().arrayValue?.count == 305)
    }

    @Test func aDatabaseWhereTheProviderStoredNothingIsEmptyToEveryReadVerb() async throws {
        let folder = try CacheTestFolder()
        let path = folder.file("cache.sqlite")
        let store = try SQLiteCacheStore(path: path)
        let stub = StubTransport()
        stub.onGraphQL("Rename", reply: .graphQL(data: ["rename": ["__typename": "Track", "id": "1"]]))
        let provider = Provider(baseURL: try #require(URL(string: ProviderCacheFixture.baseURL)), transport: stub) {
            config in
            config.cache = ResponseCache(store: store)
        }
        _ = try await provider.fetch(try GraphQLOperation("mutation Rename { rename { __typename id } }"),
                                     as: JSONValue.self)
        #expect(await runCache(["list"], database: path).stdout == "The cache at \(path) has no entries.\n")
        #expect(try await runCache(["list", "--json"], database: path).json() == [])
        #expect(try await runCache(["stats", "--json"], database: path).json()["entries"]?.intValue == 0)
        #expect(await runCache(["verify"], database: path).status == 0)
    }

    @Test func aDamagedProviderBuiltDatabaseIsReportedClearly() async throws {
        let folder = try CacheTestFolder()
        let path = folder.file("cache.sqlite")
        do {
            let store = try SQLiteCacheStore(path: path)
            let stub = StubTransport()
            let data = ProviderCacheFixture.trackData(String(repeating: "x", count: 900))
            stub.onGraphQL("GetTrack", reply: .graphQL(data: data))
            let provider = Provider(baseURL: try #require(URL(string: ProviderCacheFixture.baseURL)), transport: stub) {
                config in
                config.cache = ResponseCache(store: store)
                // Filling the database is set-up, not what is tested: on a loaded machine one of these
                // 300 calls can wait on the shared lane and the disk past the default 30 s deadline.
                config.deadline = nil
            }
            let operation = try ProviderCacheFixture.getTrack()
            for index in 0..<300 {
                _ = try await provider.fetch(operation, variables: ["id": .string("\(index)")], as: JSONValue.self)
            }
            try await store.vacuum()
        }
        try CacheDatabaseStateTests.damageATableLeafPage(path)
        let verify = await runCache(["verify", "--json"], database: path)
        #expect(verify.status == 1, "\(verify.transcript)")
        #expect(try verify.json()["ok"] == false)
        let export = await runCache(["export"], database: path)
        #expect(export.status == 1)
        #expect(export.stderr.contains("is damaged"))
        #expect(!export.stderr.contains("Fatal error"))
    }
}
