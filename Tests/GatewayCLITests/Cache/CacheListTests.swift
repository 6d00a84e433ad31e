import Foundation
import Gateway
import GraphQLLanguage
import Testing
@testable import GatewayCLI

@Suite struct CacheListTests {
    @Test func listPrintsOneAlignedRowPerEntryWithSizesAgesAndExpiryAsPeopleWriteThem() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let run = await runCache(["list"], database: path)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.stderr.isEmpty)
        let lines = run.lines
        let header = try #require(lines.first)
        for title in ["KEY", "KIND", "OPERATION / URL", "PARTITION", "SIZE", "AGE", "EXPIRES", "HITS"] {
            #expect(header.contains(title), "\(header)")
        }
        #expect(lines.count == 1 + 6 + 1, "\(run.transcript)")
        // Columns line up: every row's cells start where the header's titles start.
        let kindColumn = try #require(header.range(of: "KIND")).lowerBound.utf16Offset(in: header)
        for row in lines[1...6] {
            let cell = row.utf16.dropFirst(kindColumn).prefix(4)
            #expect(String(decoding: cell, as: UTF16.self) == "Grap" || String(decoding: cell, as: UTF16.self) == "REST",
                    "\(row)")
        }
        let track42 = try CacheFixture.getTrackKey("42")
        let row42 = try #require(lines.first { $0.hasPrefix(String(track42.hex.prefix(12))) })
        #expect(row42.contains("GetTrack"))
        #expect(row42.contains("anonymous"))
        #expect(row42.contains("3 min"))
        #expect(row42.contains("in 2 min"))
        #expect(row42.hasSuffix(" 2"), "two hits: \(row42)")
        let tracks = try #require(lines.first { $0.contains("https://api.example.com/tracks") })
        #expect(tracks.contains("REST"))
        #expect(tracks.contains("expired 2 h ago"))
        #expect(tracks.contains("3 h"))
        let me = try #require(lines.first { $0.contains(" Me ") })
        #expect(me.contains("user-1"))
        #expect(me.contains("never"))
        let notes = try #require(lines.first { $0.contains("/notes") })
        #expect(notes.contains("3.3 KiB"), "\(notes)")
        #expect(lines.last?.hasPrefix("6 entries, ") == true)
        #expect(lines.last?.contains("(1 expired)") == true)
    }

    @Test func listJSONParsesBackWithEveryEntryAndItsFields() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let run = await runCache(["list", "--json"], database: path)
        #expect(run.status == 0, "\(run.transcript)")
        let items = try #require(try run.json().arrayValue)
        #expect(items.count == 6)
        let track42 = try CacheFixture.getTrackKey("42")
        let item = try #require(items.first { $0["key"]?.stringValue == track42.hex })
        #expect(item["kind"]?.stringValue == "graphql")
        #expect(item["operationName"]?.stringValue == "GetTrack")
        #expect(item["partition"]?.isNull == true)
        #expect(item["hits"]?.intValue == 2)
        #expect(item["expired"]?.boolValue == false)
        #expect(item["ageSeconds"]?.intValue == 180)
        #expect(item["expiresInSeconds"]?.intValue == 120)
        #expect(item["tags"] == ["Track:42"])
        #expect(item["storedAt"]?.stringValue == "2027-01-15T07:57:00.000Z")
        let rest = try #require(items.first { $0["kind"]?.stringValue == "rest" && $0["expired"]?.boolValue == true })
        #expect(rest["name"]?.stringValue == "https://api.example.com/tracks?limit=10&offset=0")
        #expect(rest["method"]?.stringValue == "GET")
        let me = try #require(items.first { $0["operationName"]?.stringValue == "Me" })
        #expect(me["partition"]?.stringValue == "user-1")
        #expect(me["expiresAt"]?.isNull == true)
        #expect(me["expiresInSeconds"]?.isNull == true)
    }

    @Test(arguments: [
        (["--operation", "GetTrack"], 2),
        (["--partition", "user-1"], 2),
        (["--partition", "subject:user-1"], 2),
        (["--partition", "anonymous"], 4),
        (["--expired"], 1),
        (["--tag", "Track:43"], 1),
        (["--operation", "GetTrack", "--tag", "Track:43"], 1),
        (["--operation", "https://api.example.com/tracks?limit=10&offset=0"], 1),
        (["--operation", "Nothing"], 0),
    ])
    func listFiltersSelectTheEntriesTheyName(filters: [String], count: Int) async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let run = await runCache(["list", "--json"] + filters, database: path)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(try run.json().arrayValue?.count == count, "\(filters)")
        let text = await runCache(["list"] + filters, database: path)
        #expect(text.status == 0)
        if count == 0 {
            #expect(text.stdout == "No entry matches (the cache at \(path) holds 6 entries).\n")
        } else {
            #expect(text.lines.last?.hasPrefix("\(count) of 6 entries") == true, "\(text.transcript)")
        }
    }

    @Test(arguments: [("age", "3 h"), ("size", "3.3 KiB"), ("hits", " 2")])
    func listSortsLargestFirst(sort: String, firstRowHas: String) async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let run = await runCache(["list", "--sort", sort], database: path)
        #expect(run.status == 0, "\(run.transcript)")
        #expect(run.lines.dropFirst().first?.contains(firstRowHas) == true, "\(run.transcript)")
        let json = await runCache(["list", "--sort", sort, "--json"], database: path)
        let items = try #require(try json.json().arrayValue)
        let values = items.compactMap { item -> Double? in
            switch sort {
            case "age": item["ageSeconds"]?.doubleValue
            case "size": item["size"]?.doubleValue
            default: item["hits"]?.doubleValue
            }
        }
        #expect(values == values.sorted(by: >))
    }

    @Test func aBadSortOrFilterOnTheWrongVerbIsAUsageError() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let sort = await runCache(["list", "--sort", "name"], database: path)
        #expect(sort.status == 2)
        #expect(sort.stderr.contains("--sort must be one of age, size, hits"))
        let filter = await runCache(["stats", "--expired"], database: path)
        #expect(filter.status == 2)
        #expect(filter.stderr.contains("stats does not take --expired"))
        let extra = await runCache(["list", "abc"], database: path)
        #expect(extra.status == 2)
        #expect(extra.stderr.contains("list takes no arguments"))
        let verb = await runCache(["lsit"], database: path)
        #expect(verb.status == 2)
        #expect(verb.stderr.contains("unknown verb 'lsit'"))
    }

    @Test func colourOnlyOnATerminalAndNeverWithNoColor() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let terminal = await runCache(["list"], database: path, isTerminal: true)
        #expect(terminal.stdout.contains("\u{1B}["))
        let noColor = await runCache(["list"], database: path, environment: ["NO_COLOR": "1"], isTerminal: true)
        #expect(!noColor.stdout.contains("\u{1B}"))
        let pipe = await runCache(["list"], database: path)
        #expect(!pipe.stdout.contains("\u{1B}"))
        #expect(noColor.stdout == pipe.stdout)
    }

    @Test func withoutDbTheEnvironmentOrTheProvidersDefaultPathIsUsed() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let fromEnvironment = await runCache(["list", "--json"], environment: ["GATEWAY_CACHE": path])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.transcript)")
        #expect(try fromEnvironment.json().arrayValue?.count == 6)

        let home = folder.file("home")
        let fallback = await runCache(["list"], environment: ["HOME": home])
        #expect(fallback.status == 1)
        #expect(fallback.stderr.contains("there is no cache database at \(home)/.cache/gateway/cache.sqlite"))
        let help = await runCache(["help", "list"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("$GATEWAY_CACHE"))
        #expect(help.stdout.contains("~/.cache/gateway/cache.sqlite"))
    }
}
