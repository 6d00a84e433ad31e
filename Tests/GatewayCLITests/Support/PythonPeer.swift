import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A third-party server run by python3 on 127.0.0.1 for end-to-end command tests.
///
/// The script binds port 0 and prints `READY <port>` once it accepts connections; `start` reads
/// that line from the pipe (no polling, no sleeps). `nil` when python3 or the module is not
/// installed, so the tests that need it skip.
final class PythonPeer: @unchecked Sendable {
    // `process` and `input` are set once in `start` and only read afterwards.
    private let process: Process
    /// The write end of the script's standard input, held open while the peer lives: a script
    /// that waits for end of input exits when this process ends, however it ends.
    private let input: Pipe?
    let port: Int

    var baseURL: String { "http://127.0.0.1:\(port)" }

    private init(process: Process, port: Int, input: Pipe? = nil) {
        self.process = process
        self.port = port
        self.input = input
    }

    /// Whether `python3 -c "import MODULE"` succeeds here.
    static func hasModule(_ module: String) -> Bool {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import \(module)"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        do { try probe.run() } catch { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }

    /// Starts `script` (which must print `READY <port>` and flush) and waits for its port.
    static func start(script: String) throws -> PythonPeer? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-c", script]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var buffer = Data()
        while true {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty {
                process.terminate()
                return nil
            }
            buffer.append(chunk)
            let text = String(decoding: buffer, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("READY ") }),
               let port = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
            {
                return PythonPeer(process: process, port: port)
            }
        }
    }

    /// What a script started by `launch` said first.
    enum LaunchError: Error, CustomStringConvertible {
        case ended(String)
        var description: String {
            switch self {
            case .ended(let errors): "the peer script ended before it was ready: \(errors)"
            }
        }
    }

    /// Starts `script` with `arguments` on a thread of its own (the blocking reads of its output
    /// stay off the cooperative pool) and waits for its first line: `READY <port>` gives the
    /// peer, `MISSING …` (a module the script needs is not installed) gives `nil`.
    ///
    /// The script's standard input stays open while the peer lives; a script that reads it to
    /// the end and then exits never outlives the test process.
    /// - Throws: `LaunchError` when the script ends without either line (with its standard error).
    static func launch(script: String, arguments: [String] = []) async throws -> PythonPeer? {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do {
                    continuation.resume(returning: try startAndWait(script: script, arguments: arguments))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            thread.start()
        }
    }

    private static func startAndWait(script: String, arguments: [String]) throws -> PythonPeer? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-c", script] + arguments
        let output = Pipe(), input = Pipe()
        let errorsURL = FileManager.default.temporaryDirectory.appendingPathComponent("peer-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorsURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorsURL) }
        let errors = try FileHandle(forWritingTo: errorsURL)
        defer { try? errors.close() }
        process.standardOutput = output
        process.standardInput = input
        process.standardError = errors
        try process.run()
        var buffer = Data()
        while true {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                let pid = process.processIdentifier
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
                let text = String(decoding: (try? Data(contentsOf: errorsURL)) ?? Data(), as: UTF8.self)
                throw LaunchError.ended(String(text.suffix(2000)))
            }
            buffer.append(chunk)
            let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n")
            if lines.contains(where: { $0.hasPrefix("MISSING") }) {
                try? input.fileHandleForWriting.close()
                var status: Int32 = 0
                _ = waitpid(process.processIdentifier, &status, 0)
                return nil
            }
            if let line = lines.first(where: { $0.hasPrefix("READY ") }),
               let port = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
            {
                return PythonPeer(process: process, port: port, input: input)
            }
        }
    }

    /// httpbin served by werkzeug on a free port.
    static func httpbin() throws -> PythonPeer? {
        guard hasModule("httpbin") else { return nil }
        return try start(script: """
            import logging, sys
            logging.disable(logging.CRITICAL)
            from httpbin import app
            from werkzeug.serving import make_server
            server = make_server("127.0.0.1", 0, app, threaded=True)
            print("READY", server.server_port, flush=True)
            server.serve_forever()
            """)
    }

    /// Ends the server. Signals the process directly: `Process.waitUntilExit` can spin forever
    /// on Linux when called off the main thread.
    func stop() {
        let pid = process.processIdentifier
        guard pid > 0 else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    deinit { stop() }
}
