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
    // `process` is set once in `start` and only read afterwards.
    private let process: Process
    let port: Int

    var baseURL: String { "http://127.0.0.1:\(port)" }

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
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
