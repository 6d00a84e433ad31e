import Foundation
import Gateway
import GraphQLLanguage
import Testing
@testable import GatewayCLI

/// Secrets stored in cached responses (JSON body fields at any depth, headers, text bodies,
/// variables) never appear in what `show`, `export` or any other verb prints.
@Suite struct CacheSecretsTests {
    @Test func showNeverPrintsAStoredSecret() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let keys = [try CacheFixture.meKey(), try CacheFixture.notesKey(), try CacheFixture.searchKey()]
        for key in keys {
            for json in [false, true] {
                let run = await runCache(["show", key.hex] + (json ? ["--json"] : []), database: path)
                #expect(run.status == 0, "\(run.transcript)")
                for secret in CacheFixture.secrets {
                    #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret), "\(secret) in \(run.stdout)")
                }
            }
        }
        let me = await runCache(["show", try CacheFixture.meKey().hex], database: path)
        #expect(me.stdout.contains("  Authorization: <redacted>"))
        #expect(me.stdout.contains("  Set-Cookie: <redacted>"))
        #expect(me.stdout.contains("  X-Refresh-Token: <redacted>"))
        #expect(me.stdout.contains(#""access_token": "<redacted>""#))
        #expect(me.stdout.contains(#""refresh_token": "<redacted>""#))
        #expect(me.stdout.contains(#""password": "<redacted>""#))
        #expect(me.stdout.contains("cb?access_token=<redacted>"))
        // What is not a secret is still shown.
        #expect(me.stdout.contains(#""email": "ada@example.com""#))
    }

    @Test func exportPrintsEveryEntryAsJSONLinesWithoutASecret() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let run = await runCache(["export"], database: path)
        #expect(run.status == 0, "\(run.transcript)")
        for secret in CacheFixture.secrets { #expect(!run.stdout.contains(secret), "\(secret)") }
        let lines = run.lines
        #expect(lines.count == 6)
        let objects = try lines.map { try JSONValue(parsing: $0) }
        let keys = Set(objects.compactMap { $0["key"]?.stringValue })
        #expect(keys.count == 6)
        let me = try #require(objects.first { $0["operationName"]?.stringValue == "Me" })
        #expect(me["body"]?["data"]?["me"]?["access_token"]?.stringValue == "<redacted>")
        #expect(me["body"]?["data"]?["me"]?["name"]?.stringValue == "Ada")
        let notes = try #require(objects.first { $0["name"]?.stringValue?.contains("/notes") == true })
        #expect(notes["bodyText"]?.stringValue?.hasPrefix("hello token=<redacted>\n") == true)
        let search = try #require(objects.first { $0["operationName"]?.stringValue == "Search" })
        #expect(search["components"]?[3]?["value"] == ["api_key": "<redacted>", "q": "blue hour"])
        // `--json` changes nothing, and filters select.
        #expect(await runCache(["export", "--json"], database: path).stdout == run.stdout)
        #expect(await runCache(["export", "--partition", "user-1"], database: path).lines.count == 2)
    }

    @Test func redactAddsNamesOfFieldsHeadersAndQueryItems() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let me = try CacheFixture.meKey().hex
        let plain = await runCache(["show", me], database: path)
        #expect(plain.stdout.contains("ada@example.com"))
        #expect(plain.stdout.contains("Content-Type: application/json"))
        let redacted = await runCache(["show", me, "--redact", "email", "--redact", "Content-Type"], database: path)
        #expect(redacted.status == 0, "\(redacted.transcript)")
        #expect(!redacted.stdout.contains("ada@example.com"))
        #expect(redacted.stdout.contains(#""email": "<redacted>""#))
        #expect(redacted.stdout.contains("Content-Type: <redacted>"))
        let export = await runCache(["export", "--redact", "email"], database: path)
        #expect(!export.stdout.contains("ada@example.com"))
        let tracks = await runCache(["list", "--json", "--redact", "offset"], database: path)
        let names = try tracks.json().arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(names.contains("https://api.example.com/tracks?limit=10&offset=<redacted>"), "\(names)")
    }

    @Test func everyReadVerbKeepsTheVariableSecretOut() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let search = try CacheFixture.searchKey().hex
        let track = try CacheFixture.getTrackKey("42").hex
        for arguments in [["explain", search], ["diff", search, track], ["list"], ["stats"]] {
            for json in [false, true] {
                let run = await runCache(arguments + (json ? ["--json"] : []), database: path)
                #expect(run.status == 0, "\(arguments): \(run.transcript)")
                for secret in CacheFixture.secrets { #expect(!run.stdout.contains(secret), "\(arguments)") }
            }
        }
    }

    @Test(arguments: [
        ("password=hunter2&user=ada", "password=<redacted>&user=ada"),
        (#"{"access_token": "abc", "n": 1"#, #"{"access_token": "<redacted>", "n": 1"#),
        ("Authorization: Bearer abc.def\nX: 1", "Authorization: <redacted>\nX: 1"),
        ("see https://x.test/cb?code=1&refresh_token=r1 ok", "see https://x.test/cb?code=1&refresh_token=<redacted> ok"),
        ("query Q($token:String){me(token:$token){id}}", "query Q($token:String){me(token:$token){id}}"),
        (#"{me(token:"abc"){id}}"#, #"{me(token:"<redacted>"){id}}"#),
        ("Token: x, tokens: y", "Token: <redacted>, tokens: y"),
        (#"password: "unterminated"#, #"password: "<redacted>"#),
        ("no secrets here", "no secrets here"),
    ])
    func textScrubbingHidesTheValueAfterASensitiveName(input: String, expected: String) {
        #expect(CacheRedactor().text(input) == expected)
    }
}
