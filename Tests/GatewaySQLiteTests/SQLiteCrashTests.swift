import Foundation
import Gateway
import GatewaySQLite
import GatewayTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SQLite waits for the disk: the suite runs off the cooperative pool.
@Suite(.offPool) struct SQLiteCrashTests {
    @Test func aWriterKilledAtRandomPointsLeavesADatabaseThatPassesTheIntegrityCheck() async throws {
        let binary = try #require(GatewayExecutable.url(), "the gateway executable is missing: run swift build first")
        let folder = try TemporaryFolder()
        let path = folder.file("cache.sqlite")
        var generator = SystemRandomNumberGenerator()
        var killed = 0
        for round in 1...3 {
            // Progress comes every 50 writes of the 10,000; stop at a random one.
            let stopAfter = Int.random(in: 1...120, using: &generator)
            // Reading the pipe and waiting for the process block: a thread of their own.
            let reached = try await OffPool.blocking {
                try Self.runWriter(binary, path: path, seed: round, stopAfterLines: stopAfter)
            }
            if reached { killed += 1 }
            let reader = try SQLiteCacheStore(path: path, mode: .readOnly)
            #expect(try await reader.verify() == [], "after killing the writer at line \(stopAfter) of round \(round)")
        }
        #expect(killed == 3)
        let warnings = WarningLog()
        let store = try SQLiteCacheStore(path: path, onWarning: warnings.handler)
        #expect(try await store.statistics().entries > 0)
        try await store.put(Fixture.entry(1))
        #expect(try await store.get(Fixture.key(1), now: Fixture.now) != nil)
        #expect(warnings.all.isEmpty)
    }

    /// Starts the writer, reads its progress lines until `stopAfterLines`, then kills it with SIGKILL.
    /// - Returns: whether it was killed (rather than finishing first).
    static func runWriter(_ binary: URL, path: String, seed: Int, stopAfterLines: Int) throws -> Bool {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["cache-writer-test", "--db", path, "--count", "10000", "--progress-every", "50",
                             "--seed", String(seed), "--limit", String(16 << 20)]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        var lines = 0
        var buffer = Data()
        while lines < stopAfterLines {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            lines = buffer.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        }
        let finished = String(decoding: buffer, as: UTF8.self).contains("done")
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        return lines >= stopAfterLines && !finished
    }
}
