import Foundation

/// A third-party server run by python3 on 127.0.0.1 for end-to-end tests.
///
/// Each kind of server starts once per test process, the first time a test asks for it, and
/// serves every test after that (`PythonPeer.httpbin()`): starting python and importing a web
/// framework costs most of a second of CPU, too much to pay per test on a machine with two cores.
/// It ends with the test process: the script exits when its standard input, a pipe only the test
/// process holds, reaches its end.
package final class PythonPeer: Sendable {
    package let port: Int
    /// The write end of the script's standard input, held open for as long as the peer serves.
    private let lifeline: FileHandle

    package var baseURL: String { "http://127.0.0.1:\(port)" }

    private init(port: Int, lifeline: FileHandle) {
        self.port = port
        self.lifeline = lifeline
    }

    private static let peers = OnceCache<String, PythonPeer?>()

    /// httpbin served by werkzeug on a free port; `nil` when python3, httpbin or werkzeug is not
    /// installed here, so the tests that need it skip.
    package static func httpbin() async throws -> PythonPeer? {
        try await peers.value(for: "httpbin") {
            try await start(script: """
                import logging
                logging.disable(logging.CRITICAL)
                from httpbin import app
                from werkzeug.serving import make_server
                server = make_server("127.0.0.1", 0, app, threaded=True)
                print("READY", server.server_port, flush=True)
                server.serve_forever()
                """)
        }
    }

    /// Starts `script`, which must print `READY <port>` and flush once it accepts connections, and
    /// waits for that line on a thread of its own (no polling, no sleeps, and no thread of the
    /// cooperative pool blocked on the pipe).
    /// - Returns: the peer, or `nil` when the script ended without printing the line (python3 or
    ///   a module it imports is missing).
    package static func start(script: String) async throws -> PythonPeer? {
        try await launch(script: script)
    }

    /// Starts `script` with `arguments` (`sys.argv[1:]`), as `start` does; a first line
    /// `MISSING …` (a module the script needs is not installed) also gives `nil`.
    package static func launch(script: String, arguments: [String] = []) async throws -> PythonPeer? {
        try await OffPool.blocking {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            // The watcher thread ends the script when the test process closes its standard input,
            // however the test process ends.
            process.arguments = ["python3", "-u", "-c", """
                import os, sys, threading
                def _end_with_the_tests():
                    sys.stdin.buffer.read()
                    os._exit(0)
                threading.Thread(target=_end_with_the_tests, daemon=True).start()
                """ + "\n" + script] + arguments
            let output = Pipe()
            let input = Pipe()
            process.standardOutput = output
            process.standardInput = input
            process.standardError = FileHandle.nullDevice
            try process.run()
            var buffer = Data()
            while true {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty {
                    // The script ended; closing our end of its input releases nothing else.
                    try? input.fileHandleForWriting.close()
                    return nil
                }
                buffer.append(chunk)
                let text = String(decoding: buffer, as: UTF8.self)
                if text.hasPrefix("MISSING") {
                    try? input.fileHandleForWriting.close()
                    return nil
                }
                if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("READY ") }),
                   let port = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
                {
                    return PythonPeer(port: port, lifeline: input.fileHandleForWriting)
                }
            }
        }
    }
}
