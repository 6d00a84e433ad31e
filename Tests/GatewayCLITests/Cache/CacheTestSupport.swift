import Foundation
import Gateway
import GatewaySQLite
import GraphQLLanguage
import Testing
@testable import GatewayCLI

/// A fresh folder under the system's temporary folder, removed when the value is released.
final class CacheTestFolder: Sendable {
    let path: String

    init(_ label: String = #function) throws {
        let name = label.filter { $0.isLetter || $0.isNumber }.prefix(40)
        path = NSTemporaryDirectory() + "gateway-cache-cli-\(name)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the folder.
    func file(_ name: String) -> String { path + "/" + name }

    /// The names of the files in the folder.
    var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] }
}

/// What a run of `gateway cache` printed and returned.
struct CacheRun {
    let status: Int32
    let stdout: String
    let stderr: String

    /// Standard output parsed as one JSON document.
    func json() throws -> JSONValue { try JSONValue(parsing: stdout) }

    /// Standard output as lines, without the empty last one.
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast() }

    /// Both streams, for failure messages.
    var transcript: String { "status \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
}

/// Runs `gateway cache ARGUMENTS` through the dispatcher with a fixed clock.
func runCache(_ arguments: [String], database: String? = nil, now: Date = CacheFixture.now,
              environment: [String: String] = [:], isTerminal: Bool = false) async -> CacheRun {
    let sink = CapturedOutput()
    let dispatcher = Dispatcher(commands: [CacheCommand(now: { now })])
    let full = ["cache"] + arguments + (database.map { ["--db", $0] } ?? [])
    let status = await dispatcher.run(full, output: sink.output(environment: environment, isTerminal: isTerminal))
    return CacheRun(status: status, stdout: sink.stdout, stderr: sink.stderr)
}

/// A cache database filled through the store API with realistic GraphQL and REST entries, the
/// way a Provider fills it: keys made with `CacheKey`, normalized operation text, and hits,
/// stale hits and misses counted by `get`.
enum CacheFixture {
    /// The moment the tests judge ages by: every entry's age and expiry is fixed relative to it.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let endpoint = "https://api.example.com/graphql"

    static let getTrackSource = """
        query GetTrack($id: ID!) {
          track(id: $id) { ...TrackSummary album { title } }
        }
        fragment TrackSummary on Track { id title duration }
        """
    static let meSource = "query Me { me { id name email session { expiresAt } } }"
    static let searchSource = "query Search($q: String!, $api_key: String) { search(q: $q, key: $api_key) { id } }"

    /// Secrets stored in the cached responses, variables and headers: none may ever be printed.
    static let secrets = [
        "SECRET-ACCESS-1", "SECRET-REFRESH-2", "SECRET-PASSWORD-3", "SECRET-URL-4", "SECRET-BEARER-5",
        "SECRET-COOKIE-6", "SECRET-HEADER-7", "SECRET-TEXT-8", "SECRET-VAR-9",
    ]

    /// The per-operation part of a key, from GraphQL source, as the Provider makes it.
    static func operation(_ source: String) throws -> CacheKey.Operation {
        let normalized = try Normalizer.normalize(try Parser.parse(Source(source)))
        return CacheKey.Operation(text: normalized.text, name: normalized.operationName)
    }

    static func getTrackKey(_ id: String, partition: CachePartition = .anonymous) throws -> CacheKey {
        try operation(getTrackSource).key(variables: ["id": .string(id)], endpoint: endpoint, partition: partition)
    }

    static func meKey() throws -> CacheKey {
        try operation(meSource).key(variables: nil, endpoint: endpoint, partition: .subject("user-1"))
    }

    static func searchKey() throws -> CacheKey {
        try operation(searchSource).key(variables: ["q": "blue hour", "api_key": "SECRET-VAR-9"],
                                        endpoint: endpoint, partition: .anonymous)
    }

    static func tracksKey() throws -> CacheKey {
        CacheKey.rest(url: try #require(URL(string: "https://api.example.com/tracks?offset=0&limit=10")),
                      partition: .anonymous)
    }

    static func notesKey() throws -> CacheKey {
        CacheKey.rest(url: try #require(URL(string: "https://api.example.com/notes?limit=20")),
                      partition: .subject("user-1"), vary: ["Accept"], requestHeaders: ["Accept": "text/plain"])
    }

    static let meBody = """
        {"data":{"me":{"id":"u1","name":"Ada","email":"ada@example.com","access_token":"SECRET-ACCESS-1",\
        "session":{"refresh_token":"SECRET-REFRESH-2","credentials":[{"password":"SECRET-PASSWORD-3"}],\
        "note":"callback https://example.com/cb?access_token=SECRET-URL-4"}}}}
        """

    /// Writes the fixture's six entries and some look-ups into a new database at `path`.
    static func fill(_ path: String) async throws {
        let store = try SQLiteCacheStore(path: path)
        for entry in try entries() { try await store.put(entry) }
        func at(_ seconds: TimeInterval) -> Date { now.addingTimeInterval(seconds) }
        _ = try await store.get(try getTrackKey("42"), now: at(-100))
        _ = try await store.get(try getTrackKey("42"), now: at(-50))
        _ = try await store.get(try tracksKey(), now: at(-1000))
        _ = try await store.get(try getTrackKey("44"), now: at(-40))
        try await store.flush()
    }

    /// The fixture's six entries: GraphQL and REST, fresh, expired and never expiring, with secrets.
    static func entries() throws -> [CacheEntry] {
        let json: HTTPHeaders = ["Content-Type": "application/json"]
        func at(_ seconds: TimeInterval) -> Date { now.addingTimeInterval(seconds) }
        let track42 = #"{"data":{"track":{"id":"42","title":"Blue Hour","duration":215,"album":{"title":"Night"}}}}"#
        let track43 = #"{"data":{"track":{"id":"43","title":"Dawn","duration":187,"album":{"title":"Night"}}}}"#
        return [
            CacheEntry(key: try getTrackKey("42"), headers: json, body: Data(track42.utf8), tags: ["Track:42"],
                       storedAt: at(-180), expiresAt: at(120)),
            CacheEntry(key: try getTrackKey("43"), headers: json, body: Data(track43.utf8), tags: ["Track:43"],
                       storedAt: at(-60), expiresAt: at(240)),
            CacheEntry(key: try meKey(),
                       headers: ["Content-Type": "application/json", "Authorization": "Bearer SECRET-BEARER-5",
                                 "Set-Cookie": "session=SECRET-COOKIE-6; HttpOnly",
                                 "X-Refresh-Token": "SECRET-HEADER-7"],
                       body: Data(meBody.utf8), tags: ["User:u1"], storedAt: at(-7200), expiresAt: nil),
            CacheEntry(key: try searchKey(), headers: json, body: Data(#"{"data":{"search":[{"id":"7"}]}}"#.utf8),
                       storedAt: at(-30), expiresAt: at(3600)),
            CacheEntry(key: try tracksKey(),
                       headers: ["Content-Type": "application/json", "ETag": "\"tracks-v1\"",
                                 "Last-Modified": "Tue, 14 Jan 2027 08:00:00 GMT"],
                       body: Data(#"[{"id":"42"},{"id":"43"}]"#.utf8), tags: ["Tracks"], storedAt: at(-10_800),
                       expiresAt: at(-7200), etag: "\"tracks-v1\"", lastModified: "Tue, 14 Jan 2027 08:00:00 GMT"),
            CacheEntry(key: try notesKey(), headers: ["Content-Type": "text/plain", "Vary": "Accept"],
                       body: Data(("hello token=SECRET-TEXT-8\n" + String(repeating: "n", count: 3000)).utf8),
                       storedAt: at(-600), expiresAt: at(300)),
        ]
    }

    /// A new folder holding a filled database.
    static func filledDatabase(_ label: String = #function) async throws -> (CacheTestFolder, String) {
        let folder = try CacheTestFolder(label)
        let path = folder.file("cache.sqlite")
        try await fill(path)
        return (folder, path)
    }
}
