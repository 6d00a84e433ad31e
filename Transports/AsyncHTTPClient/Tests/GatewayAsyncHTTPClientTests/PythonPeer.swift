import Foundation
import Testing

/// A server nobody here wrote, run by a python3 script beside this file on 127.0.0.1.
///
/// Each starts once per test process, the first time a test asks for it, and ends with the test
/// process: the script exits when its standard input, a pipe only this process holds, ends. A
/// script prints `READY <port>` once it accepts connections, or `MISSING <module>` when a module
/// it needs is not installed.
struct PythonPeer: Sendable {
    /// The port the server listens on.
    let port: Int
    /// The write end of the script's standard input, held open for as long as the server serves.
    private let lifeline: FileHandle

    /// How to install what the peers need, as a skip or a failure prints it.
    static let install = "python3 -m pip install strawberry-graphql uvicorn websockets "
        + "(CI: python3 -m pip install -r .ci/requirements.txt)"

    /// The strawberry-graphql subscription server (`subscription_server.py`), or `nil` when
    /// python3, strawberry-graphql, uvicorn or websockets is missing.
    static let strawberry = Task<PythonPeer?, any Error> { try await launch("subscription_server.py") }

    /// The scripted WebSocket peer (`websocket_peer.py`, on the websockets package), or `nil`
    /// when python3 or websockets is missing.
    static let webSocket = Task<PythonPeer?, any Error> { try await launch("websocket_peer.py") }

    /// Whether a missing server fails the tests that need it: `.ci/run` sets `GATEWAY_REQUIRE_PEERS=1`.
    static var isRequired: Bool {
        ProcessInfo.processInfo.environment["GATEWAY_REQUIRE_PEERS"].map { ["1", "true", "yes"].contains($0) } ?? false
    }

    /// Why the server is not there.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    private static func launch(_ script: String) async throws -> PythonPeer? {
        try await withCheckedThrowingContinuation { continuation in
            // The pipe is read with blocking calls, on a thread of its own rather than the pool's.
            Thread.detachNewThread { continuation.resume(with: Result { try start(script) }) }
        }
    }

    /// Starts the script and waits for its `READY <port>` line (no polling, no sleeps).
    private static func start(_ script: String) throws -> PythonPeer? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let candidates = path.split(separator: ":").map {
            URL(fileURLWithPath: String($0)).appendingPathComponent("python3")
        }
        guard let python = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            return nil
        }
        let process = Process()
        process.executableURL = python
        process.arguments = ["-u", folder.appendingPathComponent(script).path]
        let output = Pipe()
        let input = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = errors
        try process.run()
        var buffer = Data()
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty {
                try? input.fileHandleForWriting.close()
                let why = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                throw Failure(description: "\(script) ended before it was ready: \(why)")
            }
            buffer.append(chunk)
            let text = String(decoding: buffer, as: UTF8.self)
            if text.hasPrefix("MISSING") {
                try? input.fileHandleForWriting.close()
                return nil
            }
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("READY ") }),
               let port = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) {
                return PythonPeer(port: port, lifeline: input.fileHandleForWriting)
            }
        }
    }

    /// `ws://127.0.0.1:PORT/path`.
    func url(_ path: String) throws -> URL {
        guard let url = URL(string: "ws://127.0.0.1:\(port)\(path)") else {
            throw Failure(description: "no URL for the path \(path)")
        }
        return url
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite only where the strawberry subscription server runs. Skipped, naming the
    /// server and how to install it, where python3 or a module is missing; a failure instead
    /// under `GATEWAY_REQUIRE_PEERS=1`.
    static var requiresStrawberry: Self {
        requires(PythonPeer.strawberry, "strawberry-graphql on uvicorn with websockets (a GraphQL subscription server)")
    }

    /// Runs the suite only where the scripted WebSocket peer (python3's websockets package) runs.
    static var requiresWebSocketPeer: Self {
        requires(PythonPeer.webSocket, "the websockets package (a WebSocket server for python3)")
    }

    private static func requires(_ peer: Task<PythonPeer?, any Error>, _ what: String) -> Self {
        .enabled("needs \(what), which is not installed here; install it with \(PythonPeer.install)") {
            if try await peer.value != nil { return true }
            if PythonPeer.isRequired {
                throw PythonPeer.Failure(description: "\(what) is required (GATEWAY_REQUIRE_PEERS=1) but python3 or a "
                    + "module is not installed; \(PythonPeer.install)")
            }
            return false
        }
    }
}
