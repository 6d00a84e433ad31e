import Foundation
import Gateway
import GatewaySQLite
import GraphQLLanguage
import Testing
@testable import GatewayCLI

@Suite struct CacheShowTests {
    @Test func showPrintsTheComponentsThePrettyQueryTheResponseAndItsBookkeeping() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let key = try CacheFixture.getTrackKey("42")
        let run = await runCache(["show", String(key.hex.prefix(12))], database: path)
        #expect(run.status == 0, "\(run.transcript)")
        let text = run.stdout
        #expect(text.contains("Key        \(key.hex)"))
        #expect(text.contains("Kind       GraphQL"))
        #expect(text.contains("Operation  GetTrack"))
        #expect(text.contains("Endpoint   https://api.example.com/graphql"))
        #expect(text.contains(#"Variables  {"id":"42"}"#))
        #expect(text.contains("Partition  anonymous"))
        #expect(text.contains("Tags       Track:42"))
        #expect(text.contains("Stored     2027-01-15 07:57:00 UTC (3 min ago)"))
        #expect(text.contains("Expires    2027-01-15 08:02:00 UTC (in 2 min)"))
        #expect(text.contains("Hits       2"))
        // The normalized query, pretty-printed by the Printer, fragments included.
        let document = try Parser.parse(Source(key.components.operation ?? ""))
        #expect(text.contains("Query:\n" + CacheShowVerb.indented(Printer.print(document))))
        #expect(text.contains("    track(id: $id) {"))
        #expect(text.contains("  fragment TrackSummary on Track {"))
        #expect(text.contains("Headers:\n  Content-Type: application/json"))
        #expect(text.contains("Response body (JSON, 91 B):\n  {\n    \"data\": {\n      \"track\": {"))
        #expect(text.contains(#"        "title": "Blue Hour","#))
    }

    @Test func showOfARESTEntryHasMethodURLVaryValidatorsAndExpiry() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let tracks = await runCache(["show", String(try CacheFixture.tracksKey().hex.prefix(8))], database: path)
        #expect(tracks.status == 0, "\(tracks.transcript)")
        #expect(tracks.stdout.contains("Method         GET"))
        #expect(tracks.stdout.contains("URL            https://api.example.com/tracks?limit=10&offset=0"))
        #expect(tracks.stdout.contains("Expires        2027-01-15 06:00:00 UTC (expired 2 h ago)"))
        #expect(tracks.stdout.contains(#"ETag           "tracks-v1""#))
        #expect(tracks.stdout.contains("Last-Modified  Tue, 14 Jan 2027 08:00:00 GMT"))
        #expect(!tracks.stdout.contains("Query:"))
        let notes = await runCache(["show", try CacheFixture.notesKey().hex], database: path)
        #expect(notes.status == 0, "\(notes.transcript)")
        #expect(notes.stdout.contains("Vary accept  text/plain"))
        #expect(notes.stdout.contains("Response body (text, 3.0 KiB):\n  hello token=<redacted>\n"))
    }

    @Test func showJSONParsesBackWithComponentsHeadersBodyAndQuery() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let key = try CacheFixture.getTrackKey("43")
        let run = await runCache(["show", "--json", key.hex], database: path)
        #expect(run.status == 0, "\(run.transcript)")
        let object = try run.json()
        #expect(object["key"]?.stringValue == key.hex)
        #expect(object["body"]?["data"]?["track"]?["title"]?.stringValue == "Dawn")
        #expect(object["headers"]?[0]?["name"]?.stringValue == "Content-Type")
        let components = try #require(object["components"]?.arrayValue)
        #expect(components.compactMap { $0["name"]?.stringValue }
                    == ["kind", "operation", "operationName", "variables", "endpoint", "partition"])
        #expect(components[3]["value"] == ["id": "43"])
        #expect(object["query"]?.stringValue?.hasPrefix("query GetTrack($id: ID!) {") == true)
    }

    @Test func binaryAndEmptyBodiesAreDescribedNotPrinted() async throws {
        let folder = try CacheTestFolder()
        let path = folder.file("cache.sqlite")
        let store = try SQLiteCacheStore(path: path)
        let image = try CacheFixture.notesKey()
        let empty = try CacheFixture.tracksKey()
        try await store.put(CacheEntry(key: image, headers: ["Content-Type": "image/png"],
                                       body: Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]), storedAt: CacheFixture.now,
                                       expiresAt: nil))
        try await store.put(CacheEntry(key: empty, status: 204, body: Data(), storedAt: CacheFixture.now, expiresAt: nil))
        let shown = await runCache(["show", image.hex], database: path)
        #expect(shown.stdout.hasSuffix("Response body: 6 bytes of binary data (not shown)\n"), "\(shown.transcript)")
        let exported = try await runCache(["show", "--json", image.hex], database: path).json()
        #expect(exported["bodyBytes"]?.intValue == 6)
        #expect(exported["body"]?.isNull == true)
        #expect(exported["bodyText"] == nil)
        let nothing = await runCache(["show", empty.hex], database: path)
        #expect(nothing.stdout.contains("Status     204"))
        #expect(nothing.stdout.hasSuffix("Headers:\n  (none)\n\nResponse body: (empty)\n"), "\(nothing.transcript)")
    }

    @Test func aKeyIsFoundByAnyUniquePrefixInEitherCase() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let listed = try #require(try await runCache(["list", "--json"], database: path).json().arrayValue)
        let keys = listed.compactMap { $0["key"]?.stringValue }
        #expect(keys.count == 6)
        for key in keys {
            // The shortest prefix no other key shares.
            let length = (1...64).first { length in keys.filter { $0.hasPrefix(key.prefix(length)) }.count == 1 } ?? 64
            let run = await runCache(["explain", "--json", String(key.prefix(length)).uppercased()], database: path)
            #expect(run.status == 0, "\(run.transcript)")
            #expect(try run.json()["key"]?.stringValue == key)
        }
    }

    @Test func anUnknownAmbiguousOrMalformedKeyIsAClearErrorWithItsOwnStatus() async throws {
        let folder = try CacheTestFolder()
        let path = folder.file("cache.sqlite")
        let store = try SQLiteCacheStore(path: path)
        // Two keys sharing their first digit, found by trying variables until they do.
        var byFirstDigit: [Character: [CacheKey]] = [:]
        var id = 0
        while byFirstDigit.values.allSatisfy({ $0.count < 2 }) {
            let key = try CacheFixture.getTrackKey(String(id))
            byFirstDigit[key.hex.first ?? "0", default: []].append(key)
            id += 1
        }
        let pair = try #require(byFirstDigit.values.first { $0.count == 2 })
        for key in pair {
            try await store.put(CacheEntry(key: key, body: Data("{}".utf8), storedAt: CacheFixture.now, expiresAt: nil))
        }
        let shared = String(pair[0].hex.prefix(1))

        let ambiguous = await runCache(["show", shared], database: path)
        #expect(ambiguous.status == 2)
        #expect(ambiguous.stdout.isEmpty)
        #expect(ambiguous.stderr.contains("the key prefix \(shared) matches 2 entries"))
        #expect(ambiguous.stderr.contains(String(pair[0].hex.prefix(12))))
        #expect(ambiguous.stderr.contains("Give more digits of the key."))

        let unknownDigit = "0123456789abcdef".first { digit in !pair.contains { $0.hex.first == digit } } ?? "0"
        let unknown = await runCache(["show", String(unknownDigit) + "00000"], database: path)
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no entry has a key starting with \(unknownDigit)00000"))

        let malformed = await runCache(["show", "GetTrack"], database: path)
        #expect(malformed.status == 2)
        #expect(malformed.stderr.contains("'GetTrack' is not a cache key"))

        let missingKey = await runCache(["show"], database: path)
        #expect(missingKey.status == 2)
        #expect(missingKey.stderr.contains("show takes one KEY; got none"))
    }
}
