import Foundation
import Gateway
import GatewaySQLite
import GraphQLLanguage
import Testing
@testable import GatewayCLI

/// Every read verb opens the database read-only while another store writes to it in a loop:
/// the reads succeed, and the writer neither fails nor stops.
@Suite struct CacheConcurrentWriterTests {
    /// A store writing (and now and then reading) entries on a thread of its own until stopped,
    /// at a few hundred writes a second.
    final class Writer: Sendable {
        private struct State {
            var written = 0
            var failures: [String] = []
            var stopping = false
            var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []
            var finished: CheckedContinuation<Void, Never>?
            var done = false
        }

        private let state = Locked(State())
        private let store: SQLiteCacheStore
        private let warningLog = Locked<[CacheWarning]>([])
        private let operation: CacheKey.Operation

        init(path: String) throws {
            let log = warningLog
            store = try SQLiteCacheStore(path: path) { warning in log.withLock { $0.append(warning) } }
            operation = try CacheFixture.operation(CacheFixture.getTrackSource)
        }

        var written: Int { state.withLock { $0.written } }
        var failures: [String] { state.withLock { $0.failures } }
        var warnings: [CacheWarning] { warningLog.value }

        func start() {
            let thread = Thread { [self] in loop() }
            thread.start()
        }

        private func loop() {
            var index = 0
            while !state.withLock({ $0.stopping }) {
                let key = operation.key(variables: ["id": .string("w\(index % 200)")], endpoint: CacheFixture.endpoint,
                                        partition: .subject("writer"))
                let entry = CacheEntry(
                    key: key, headers: ["Content-Type": "application/json"],
                    body: Data(#"{"data":{"track":{"id":"w\#(index)","title":"\#(String(repeating: "t", count: 900))"}}}"#.utf8),
                    tags: ["Writer"], storedAt: CacheFixture.now, expiresAt: CacheFixture.now.addingTimeInterval(600))
                do {
                    try store.putNow(entry)
                    if index % 4 == 0 { _ = try store.getNow(key, now: CacheFixture.now) }
                } catch {
                    state.withLock { $0.failures.append("\(error)") }
                }
                index += 1
                // Pacing, not synchronisation: a few hundred writes a second keep the writer busy
                // for as long as the reads take without taking a core from the rest of the suite.
                Thread.sleep(forTimeInterval: 0.002)
                let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.written = index
                    let ready = state.waiters.filter { $0.target <= index }.map(\.continuation)
                    state.waiters.removeAll { $0.target <= index }
                    return ready
                }
                for continuation in ready { continuation.resume() }
            }
            let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.done = true
                defer { state.waiters = []; state.finished = nil }
                return state.waiters.map(\.continuation) + (state.finished.map { [$0] } ?? [])
            }
            for continuation in waiting { continuation.resume() }
        }

        /// Returns once `target` entries have been written in all (or the writer has stopped).
        func waitUntil(written target: Int) async {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    if state.written >= target || state.done { return true }
                    state.waiters.append((target, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        }

        /// Stops the loop and returns once the thread has left it.
        func stop() async {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    state.stopping = true
                    if state.done { return true }
                    state.finished = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    @Test func readVerbsSucceedWhileAnotherStoreWritesAndTheWriterIsNotDisturbed() async throws {
        let (folder, path) = try await CacheFixture.filledDatabase()
        defer { _ = folder }
        let a = try CacheFixture.getTrackKey("42").hex
        let b = try CacheFixture.getTrackKey("43").hex
        let reads: [[String]] = [
            ["list", "--json"], ["list", "--partition", "writer"], ["show", a], ["show", "--json", b],
            ["explain", a], ["diff", a, b], ["stats", "--json"], ["export"], ["verify"],
        ]
        let writer = try Writer(path: path)
        writer.start()
        await writer.waitUntil(written: 20)
        var listed: [Int] = []
        for _ in 0..<2 {
            for arguments in reads {
                let run = await runCache(arguments, database: path)
                #expect(run.status == 0, "\(arguments): \(run.transcript)")
                #expect(run.stderr.isEmpty, "\(arguments): \(run.stderr)")
                if arguments == ["list", "--json"] { listed.append(try run.json().arrayValue?.count ?? 0) }
            }
        }
        // Still writing after every read: not blocked, not failed.
        let afterReads = writer.written
        await writer.waitUntil(written: afterReads + 20)
        await writer.stop()
        #expect(writer.written >= afterReads + 20)
        #expect(writer.failures.isEmpty, "\(writer.failures)")
        #expect(writer.warnings.isEmpty, "\(writer.warnings)")
        // Every read saw the fixture's entries and a consistent share of the writer's.
        #expect(listed.allSatisfy { $0 > 6 && $0 <= 6 + 200 }, "\(listed)")
        let final = await runCache(["verify", "--json"], database: path)
        #expect(try final.json()["ok"] == true, "\(final.transcript)")
    }
}
