import Foundation
import Gateway
import GatewaySQLite
import GraphQLLanguage
import Testing
@testable import GatewayCLI

@Suite struct CacheExplainDiffTests {
    @Test func explainListsEveryComponentInHashingOrderAndRecomputesTheDigest() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let key = try CacheFixture.getTrackKey("42")
        let run = await runCache(["explain", String(key.hex.prefix(10))], database: path)
        #expect(run.status == 0, "\(run.transcript)")
        let expected = [
            "  kind           graphql",
            "  operation      \(key.components.operation ?? "")",
            "  operationName  GetTrack",
            #"  variables      {"id":"42"}"#,
            "  endpoint       https://api.example.com/graphql",
            "  partition      (absent: anonymous)",
        ]
        #expect(run.stdout.contains(expected.joined(separator: "\n")), "\(run.stdout)")
        #expect(run.stdout.contains("Recomputed from these components, the digest is the stored key \(key.hex)."))

        let json = try await runCache(["explain", "--json", key.hex], database: path).json()
        #expect(json["digestMatches"]?.boolValue == true)
        let components = try #require(json["components"]?.arrayValue)
        let names = components.compactMap { $0["name"]?.stringValue }
        #expect(names == key.explain().map(\.name))
        #expect(components[5]["value"]?.isNull == true)
    }

    @Test func explainOfARESTKeyNamesTheVaryHeader() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let run = await runCache(["explain", try CacheFixture.notesKey().hex], database: path)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.stdout.contains("  method       GET\n  url          https://api.example.com/notes?limit=20\n"
                                    + "  vary:accept  text/plain\n  partition    user-1"), "\(run.stdout)")
    }

    @Test func diffOfTwoEntriesOfOneOperationNamesTheVariables() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let a = try CacheFixture.getTrackKey("42")
        let b = try CacheFixture.getTrackKey("43")
        let run = await runCache(["diff", String(a.hex.prefix(12)), String(b.hex.prefix(12))], database: path)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.stdout.contains("The keys differ in: variables (id)."))
        #expect(run.stdout.contains("variables:\n  $id  A: \"42\"\n       B: \"43\""), "\(run.stdout)")

        let json = try await runCache(["diff", "--json", a.hex, b.hex], database: path).json()
        #expect(json["same"]?.boolValue == false)
        let differences = try #require(json["differences"]?.arrayValue)
        #expect(differences.count == 1)
        #expect(differences.first?["component"]?.stringValue == "variables")
        #expect(differences.first?["variables"] == ["id"])
        #expect(differences.first?["a"] == ["id": "42"])
        #expect(json["a"]?["key"]?.stringValue == a.hex)
        #expect(json["b"]?["key"]?.stringValue == b.hex)
    }

    @Test func diffNamesThePartitionTheOperationAndQueryItems() async throws {
        let folder = try CacheTestFolder()
        let path = folder.file("cache.sqlite")
        let store = try SQLiteCacheStore(path: path)
        let user = try CacheFixture.getTrackKey("42", partition: .subject("user-2"))
        let anonymous = try CacheFixture.getTrackKey("42")
        let me = try CacheFixture.meKey()
        let first = CacheKey.rest(url: try #require(URL(string: "https://api.example.com/tracks?page=1&limit=10")),
                                  partition: .anonymous)
        let second = CacheKey.rest(url: try #require(URL(string: "https://api.example.com/tracks?limit=10&page=2")),
                                   partition: .anonymous)
        for key in [user, anonymous, me, first, second] {
            try await store.put(CacheEntry(key: key, body: Data("{}".utf8), storedAt: CacheFixture.now, expiresAt: nil))
        }

        let partitions = await runCache(["diff", user.hex, anonymous.hex], database: path)
        #expect(partitions.stdout.contains("The keys differ in: partition."), "\(partitions.transcript)")
        #expect(partitions.stdout.contains("partition:\n  A: user-2\n  B: (absent: anonymous)"))

        let operations = try await runCache(["diff", "--json", anonymous.hex, me.hex], database: path).json()
        let components = operations["differences"]?.arrayValue?.compactMap { $0["component"]?.stringValue }
        #expect(components == ["operation", "operationName", "variables", "partition"])

        let pages = await runCache(["diff", first.hex, second.hex], database: path)
        #expect(pages.stdout.contains("The keys differ in: url (page)."), "\(pages.transcript)")
        #expect(pages.stdout.contains("url:\n  page  A: 1\n        B: 2"))

        let same = await runCache(["diff", first.hex, String(first.hex.prefix(20))], database: path)
        #expect(same.status == 0)
        #expect(same.stdout.contains("A and B are the same entry."))
        #expect(try await runCache(["diff", "--json", first.hex, first.hex], database: path).json()["same"] == true)
    }
}
