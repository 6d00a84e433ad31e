import Foundation
import Gateway
import GatewaySQLite
import GraphQLLanguage
import Testing
@testable import GatewayCLI

/// Missing, empty and damaged databases: a clear message and a documented exit status from
/// every verb, never a stack trace, and nothing created or repaired by a read.
@Suite struct CacheDatabaseStateTests {
    static let someKey = "0123abcd"

    /// Every verb with the arguments it needs.
    static let everyVerb: [[String]] = [
        ["list"], ["show", someKey], ["explain", someKey], ["diff", someKey, someKey], ["stats"],
        ["evict", someKey], ["evict", "--expired"], ["purge"], ["vacuum"], ["verify"], ["export"],
    ]

    @Test(arguments: everyVerb)
    func aMissingDatabaseIsReportedAndNeverCreated(arguments: [String]) async throws {
        let folder = try CacheTestFolder()
        let path = folder.file("nothing/cache.sqlite")
        for json in [false, true] {
            let run = await runCache(arguments + (json ? ["--json"] : []), database: path)
            #expect(run.status == 1, "\(run.transcript)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.hasPrefix("gateway cache \(arguments[0]): there is no cache database at \(path)\n"))
            #expect(run.stderr.contains("give the database with --db PATH or the GATEWAY_CACHE environment variable"))
        }
        #expect(folder.contents.isEmpty)
    }

    @Test(arguments: [true, false])
    func anEmptyDatabaseGivesEmptyAnswers(withTables: Bool) async throws {
        let folder = try CacheTestFolder()
        let path = folder.file("cache.sqlite")
        if withTables {
            _ = try SQLiteCacheStore(path: path)
        } else {
            #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        }
        let list = await runCache(["list"], database: path)
        #expect(list.status == 0, "\(list.transcript)")
        #expect(list.stdout == "The cache at \(path) has no entries.\n")
        #expect(try await runCache(["list", "--json"], database: path).json() == [])
        let stats = try await runCache(["stats", "--json"], database: path).json()
        #expect(stats["entries"]?.intValue == 0)
        #expect(stats["hitRate"]?.isNull == true)
        let statsText = await runCache(["stats"], database: path)
        #expect(statsText.status == 0)
        #expect(statsText.stdout.contains("Hit rate    -\n"))
        let export = await runCache(["export"], database: path)
        #expect(export.status == 0 && export.stdout.isEmpty)
        let verify = await runCache(["verify"], database: path)
        #expect(verify.status == 0, "\(verify.transcript)")
        #expect(verify.stdout.contains("The database is sound."))
        let show = await runCache(["show", Self.someKey], database: path)
        #expect(show.status == 1)
        #expect(show.stderr.contains("no entry has a key starting with \(Self.someKey)"))
        #expect(await runCache(["purge"], database: path).status == 0)
    }

    @Test func aGarbageHeaderIsReportedByEveryVerbAndOnlyPurgeReplacesTheFile() async throws {
        let folder = try CacheTestFolder()
        let path = folder.file("cache.sqlite")
        let garbage = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        #expect(FileManager.default.createFile(atPath: path, contents: garbage))
        for arguments in Self.everyVerb where arguments != ["purge"] {
            let run = await runCache(arguments, database: path)
            #expect(run.status == 1, "\(arguments): \(run.transcript)")
            #expect(run.stderr.contains("damaged") || run.stdout.contains("damaged"), "\(arguments): \(run.transcript)")
            #expect(!run.stderr.contains("Fatal error") && !run.stderr.contains("Stack"))
            #expect(FileManager.default.contents(atPath: path) == garbage, "\(arguments) changed the file")
        }
        let verify = await runCache(["verify"], database: path)
        #expect(verify.stdout.hasPrefix("The cache database at \(path) is damaged:\n  - file is not a database\n"))
        #expect(verify.stdout.contains("'gateway cache purge' deletes it"))
        let json = try await runCache(["verify", "--json"], database: path).json()
        #expect(json["ok"] == false)
        #expect(json["problems"]?.arrayValue?.isEmpty == false)

        let purge = await runCache(["purge"], database: path)
        #expect(purge.status == 0, "\(purge.transcript)")
        #expect(purge.stdout.contains("The database was damaged; it was deleted and an empty one created"))
        #expect(await runCache(["verify"], database: path).status == 0)
        #expect(await runCache(["list"], database: path).stdout == "The cache at \(path) has no entries.\n")
    }

    @Test func aDamagedPageIsFoundByVerifyAndReportedByReads() async throws {
        let folder = try CacheTestFolder()
        let path = folder.file("cache.sqlite")
        try await Self.makeDatabase(path, count: 300)
        try Self.damageATableLeafPage(path)
        let damaged = try #require(FileManager.default.contents(atPath: path))

        let verify = await runCache(["verify"], database: path)
        #expect(verify.status == 1, "\(verify.transcript)")
        #expect(verify.stdout.contains("is damaged:\n  - "))
        let list = await runCache(["export"], database: path)
        #expect(list.status == 1, "\(list.transcript)")
        #expect(list.stderr.contains("is damaged"))
        #expect(list.stderr.contains("Run 'gateway cache verify' for the details."))
        #expect(FileManager.default.contents(atPath: path) == damaged)
    }

    /// A closed database of `count` GetTrack entries of about 1 KB, its log folded into the file.
    static func makeDatabase(_ path: String, count: Int) async throws {
        let store = try SQLiteCacheStore(path: path)
        let operation = try CacheFixture.operation(CacheFixture.getTrackSource)
        for id in 0..<count {
            let key = operation.key(variables: ["id": .string(String(id))], endpoint: CacheFixture.endpoint,
                                    partition: .anonymous)
            try await store.put(CacheEntry(key: key, body: Data(repeating: UInt8(ascii: "x"), count: 900),
                                           storedAt: CacheFixture.now, expiresAt: nil))
        }
        try await store.vacuum()
    }

    /// Overwrites one page of the `entries` table's leaves (page type 13) in the second half of the file.
    static func damageATableLeafPage(_ path: String) throws {
        var bytes = try #require(FileManager.default.contents(atPath: path))
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let pages = bytes.count / pageSize
        let page = try #require((pages / 2..<pages).first { bytes[$0 * pageSize] == 13 })
        let start = page * pageSize
        bytes.replaceSubrange(start..<(start + pageSize), with: Data(repeating: 0xFF, count: pageSize))
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    @Test func aFolderGivenAsTheDatabaseIsRefusedWithStatusTwo() async throws {
        let folder = try CacheTestFolder()
        let run = await runCache(["list"], database: folder.path)
        #expect(run.status == 2, "\(run.transcript)")
        #expect(run.stderr.contains("\(folder.path) is a folder, not a cache database"))
        #expect(folder.contents.isEmpty)
    }

    @Test func aFileThatIsNotAGatewayCacheIsRefusedWithStatusTwo() async throws {
        let folder = try CacheTestFolder()
        let path = folder.file("other.sqlite")
        try await Self.makeDatabase(path, count: 1)
        // Another application's id in the header (offset 68).
        var bytes = try #require(FileManager.default.contents(atPath: path))
        bytes.replaceSubrange(68..<72, with: [1, 2, 3, 4])
        try bytes.write(to: URL(fileURLWithPath: path))
        let run = await runCache(["list"], database: path)
        #expect(run.status == 2, "\(run.transcript)")
        #expect(run.stderr.contains("is a SQLite database but not a Gateway cache"))
    }
}
