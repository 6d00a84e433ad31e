import Foundation
import Gateway
import GatewayTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `GatewayRedisPeer` process: one application instance on the shared Redis, in a process of
/// its own, driven over its standard input and output (see `Peer` in that target).
///
/// Each command goes with a number and its reply comes back with it, so commands may overlap.
/// A reply that does not come within `replyLimit` fails the command: the peer is another process,
/// and a test must not hang on it.
final class PeerProcess: Sendable {
    private struct State {
        var next = 0
        var waiting: [Int: CheckedContinuation<String, any Error>] = [:]
        var ended = false
    }

    static let replyLimit = Duration.seconds(120)

    let name: String
    private let process: Process
    private let input: FileHandle
    private let state = Locked(State())

    /// The peer's executable, built beside the test bundle by `swift build --build-tests`.
    static var executable: String? {
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var folder = URL(fileURLWithPath: runner).deletingLastPathComponent()
        // On Apple platforms the runner sits inside the .xctest bundle.
        while folder.path.contains(".xctest") { folder = folder.deletingLastPathComponent() }
        let candidate = folder.appendingPathComponent("GatewayRedisPeer").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    /// Starts a peer on the Redis at `redisPort` calling `upstream`, and waits until it hears
    /// the other instances.
    /// A `leaseMilliseconds` shorter than the peer's 30 s makes a dead peer's lease expire sooner.
    static func start(name: String, redisPort: Int, upstream: URL, leaseMilliseconds: Int? = nil) async throws
        -> PeerProcess
    {
        // A peer that died must fail the command writing to it, not end the test process.
        _ = signal(SIGPIPE, SIG_IGN)
        guard let executable else {
            throw RedisServerError("GatewayRedisPeer was not found beside the test bundle; build it with "
                                   + "`swift build --build-tests`")
        }
        let peer = try PeerProcess(name: name, executable: executable,
                                   arguments: [String(redisPort), upstream.absoluteString, name]
                                    + (leaseMilliseconds.map { [String($0)] } ?? []))
        let ready = try await peer.send("ready")
        guard ready == "ready" else { throw RedisServerError("peer \(name) did not start: \(ready)") }
        return peer
    }

    private init(name: String, executable: String, arguments: [String]) throws {
        self.name = name
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.standardError
        input = stdin.fileHandleForWriting
        let state = state
        process.terminationHandler = { _ in
            let waiting = state.withLock { state -> [CheckedContinuation<String, any Error>] in
                state.ended = true
                defer { state.waiting = [:] }
                return Array(state.waiting.values)
            }
            for waiter in waiting { waiter.resume(throwing: RedisServerError("peer \(name) ended")) }
        }
        try process.run()
        let reader = stdout.fileHandleForReading
        let thread = Thread {
            var pending = ""
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { return }
                pending += String(decoding: chunk, as: UTF8.self)
                while let newline = pending.firstIndex(of: "\n") {
                    let line = String(pending[..<newline])
                    pending = String(pending[pending.index(after: newline)...])
                    guard let space = line.firstIndex(of: " "), let id = Int(line[..<space]) else { continue }
                    let reply = String(line[line.index(after: space)...])
                    state.withLock { $0.waiting.removeValue(forKey: id) }?.resume(returning: reply)
                }
            }
        }
        thread.start()
    }

    deinit { kill() }

    /// Kills the process at once (SIGKILL, as a crash would).
    func kill() {
        if process.isRunning { _ = signalProcess(process.processIdentifier, SIGKILL) }
    }

    /// Sends `command` and returns the peer's reply.
    func send(_ command: String) async throws -> String {
        let id = state.withLock { state -> Int in
            state.next += 1
            return state.next
        }
        let timer = Task { [state, name] in
            guard (try? await Task.sleep(for: Self.replyLimit)) != nil else { return }
            state.withLock { $0.waiting.removeValue(forKey: id) }?
                .resume(throwing: RedisServerError("peer \(name) did not answer `\(command)` in time"))
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
            let ended = state.withLock { state -> Bool in
                guard !state.ended else { return true }
                state.waiting[id] = continuation
                return false
            }
            if ended {
                continuation.resume(throwing: RedisServerError("peer \(name) ended"))
                return
            }
            input.write(Data("\(id) \(command)\n".utf8))
        }
    }

    /// Runs `count` concurrent fetches of track `id` as `user` (`-`: anonymous); their cache outcomes.
    func fetch(_ count: Int = 1, user: String = "-", id: Int) async throws -> [String] {
        let reply = try await send("fetch \(count) \(user) \(id)")
        guard reply.hasPrefix("outcomes ") else { throw RedisServerError("peer \(name): \(reply)") }
        return reply.dropFirst("outcomes ".count).split(separator: ",").map(String.init)
    }

    /// The number after the reply's first word (`memory 2`).
    func number(_ command: String) async throws -> Int {
        let reply = try await send(command)
        let words = reply.split(separator: " ")
        guard words.count >= 2, let number = Int(words[1]) else { throw RedisServerError("peer \(name): \(reply)") }
        return number
    }
}

private func signalProcess(_ pid: Int32, _ signal: Int32) -> Int32 {
    kill(pid, signal)
}
