import Foundation
import Gateway
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real `redis-server` run by a test on a free port of 127.0.0.1, in a temporary folder, with
/// persistence off (`--save '' --appendonly no`). Each test starts its own, so tests never see
/// each other's keys; it is killed when the value is released (or by `stop()`).
public final class RedisServer: Sendable {
    private struct State {
        var process: Process?
        var exited = true
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// Its working folder, removed with it.
    public let folder: String
    private let arguments: [String]
    private let state = Locked(State())

    /// `redis://127.0.0.1:PORT/0`.
    public var urlString: String { "redis://127.0.0.1:\(port)/0" }

    /// The executable, when installed.
    public static var executable: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") + ["/usr/sbin", "/usr/bin"] {
            let candidate = "\(directory)/redis-server"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Starts a server; `extra` adds configuration (`["--requirepass", "secret"]`). By default the
    /// memory is bounded with `volatile-lru`, as the store's documentation advises.
    ///
    /// A free port can be taken between finding it and the server binding it (by another test's
    /// server, or another process on the machine); the server then ends at once, and another port
    /// is tried, up to five.
    public static func start(_ extra: [String] = ["--maxmemory", "64mb", "--maxmemory-policy", "volatile-lru"])
        async throws -> RedisServer
    {
        var attempt = 1
        while true {
            let folder = NSTemporaryDirectory() + "gateway-redis-tests-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let server = RedisServer(port: try freePort(), folder: folder, arguments: extra)
            do {
                try await server.launch()
                return server
            } catch let error as RedisServerError where error.endedBeforeReady && attempt < 5 {
                attempt += 1
            }
        }
    }

    private init(port: Int, folder: String, arguments: [String]) {
        self.port = port
        self.folder = folder
        self.arguments = arguments
    }

    deinit {
        signalIfRunning(SIGKILL)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Starts the process and returns once it accepts connections (it prints so on its standard
    /// output, which is read on a thread of its own).
    public func launch() async throws {
        guard let executable = Self.executable else { throw RedisServerError("redis-server is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", folder, "--daemonize", "no", "--loglevel", "notice", "--logfile", ""]
            + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [state] _ in
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.exited = true
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
        state.withLock { state in
            state.process = process
            state.exited = false
        }
        try process.run()
        let reader = output.fileHandleForReading
        let log = Locked("")
        let ready = try await OffPool.blocking { () -> Bool in
            var text = ""
            defer { log.withLock { $0 = text } }
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { return false }
                text += String(decoding: chunk, as: UTF8.self)
                if text.contains("Ready to accept connections") { break }
            }
            // Keep reading what it logs later, so that it never blocks on a full pipe.
            let drain = Thread { while !reader.availableData.isEmpty {} }
            drain.start()
            return true
        }
        guard ready else {
            let said = log.value.split(separator: "\n").suffix(2).joined(separator: " / ")
            throw RedisServerError("redis-server on port \(port) ended before it was ready (it said: \(said))",
                                   endedBeforeReady: true)
        }
    }

    /// Kills the server at once (SIGKILL, as a crash would) and waits until it is gone.
    public func kill() async {
        await end(signal: SIGKILL)
    }

    /// Freezes the server (SIGSTOP): its connections stay open and nothing is answered, as with
    /// a host gone from the network.
    public func pause() {
        signalIfRunning(SIGSTOP)
    }

    /// Lets a paused server go on (SIGCONT).
    public func resume() {
        signalIfRunning(SIGCONT)
    }

    /// Sends `signal` to the process unless it has not started or has ended.
    private func signalIfRunning(_ signal: Int32) {
        state.withLock { state in
            if let process = state.process, !state.exited { sendSignal(process.processIdentifier, signal) }
        }
    }

    /// Stops the server (SIGTERM) and waits until it is gone.
    public func stop() async {
        await end(signal: SIGTERM)
    }

    private func end(signal: Int32) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let running = state.withLock { state -> Bool in
                guard let process = state.process, !state.exited else { return false }
                state.waiters.append(continuation)
                sendSignal(process.processIdentifier, signal)
                return true
            }
            if !running { continuation.resume() }
        }
    }

    /// A port nothing listens on now: one the system hands out for a socket bound to port 0.
    public static func freePort() throws -> Int {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw RedisServerError("socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> Bool in
                bind(fd, address, length) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        guard bound else { throw RedisServerError("could not bind a port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

private func sendSignal(_ pid: Int32, _ signal: Int32) {
    _ = kill(pid, signal)
}

/// Why a `RedisServer` (or a test's own listener) could not start.
public struct RedisServerError: Error, CustomStringConvertible {
    public let description: String
    /// Whether the server started and ended before accepting connections (its port was taken).
    public let endedBeforeReady: Bool
    public init(_ description: String, endedBeforeReady: Bool = false) {
        self.description = description
        self.endedBeforeReady = endedBeforeReady
    }
}
