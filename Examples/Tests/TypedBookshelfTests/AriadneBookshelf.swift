import Foundation
import Testing

/// ariadne, a GraphQL server nobody here wrote, serving `Schemas/bookshelf.graphql` with fixed
/// data on 127.0.0.1 (`bookshelf_server.py` beside this file, under python3's own WSGI server).
///
/// It starts once per test process, the first time a test asks for it, and ends with the test
/// process: the script exits when its standard input, a pipe only this process holds, ends.
struct AriadneBookshelf: Sendable {
    /// The server's address, such as `http://127.0.0.1:49152/`.
    let baseURL: URL
    /// The write end of the script's standard input, held open for as long as the server serves.
    private let lifeline: FileHandle

    /// How to install what the server needs, as a skip or a failure prints it.
    static let install = "python3 -m pip install ariadne (CI: python3 -m pip install -r .ci/requirements.txt)"

    /// Why a test that needs the server is skipped.
    static let skipped = "needs ariadne (a GraphQL server for python3), which is not installed here; install it with "
        + install

    /// The running server, or `nil` when python3 or ariadne is not installed here.
    static let shared = Task<AriadneBookshelf?, any Error> {
        try await withCheckedThrowingContinuation { continuation in
            // The pipe is read with blocking calls, on a thread of its own rather than the pool's.
            Thread.detachNewThread { continuation.resume(with: Result { try start() }) }
        }
    }

    /// Whether a missing server fails the tests that need it: `.ci/run` sets `GATEWAY_REQUIRE_PEERS=1`.
    static var isRequired: Bool {
        ProcessInfo.processInfo.environment["GATEWAY_REQUIRE_PEERS"].map { ["1", "true", "yes"].contains($0) } ?? false
    }

    /// Why the server is not there.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// Starts the script and waits for its `READY <port>` line (no polling, no sleeps).
    private static func start() throws -> AriadneBookshelf? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let candidates = path.split(separator: ":").map {
            URL(fileURLWithPath: String($0)).appendingPathComponent("python3")
        }
        guard let python = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            return nil
        }
        let schema = folder.appendingPathComponent("../../Schemas/bookshelf.graphql").standardizedFileURL
        let process = Process()
        process.executableURL = python
        process.arguments = ["-u", folder.appendingPathComponent("bookshelf_server.py").path, schema.path]
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
                throw Failure(description: "the ariadne bookshelf server ended before it was ready: \(why)")
            }
            buffer.append(chunk)
            let text = String(decoding: buffer, as: UTF8.self)
            if text.hasPrefix("MISSING") {
                try? input.fileHandleForWriting.close()
                return nil
            }
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("READY ") }),
               let port = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)),
               let url = URL(string: "http://127.0.0.1:\(port)/")
            {
                return AriadneBookshelf(baseURL: url, lifeline: input.fileHandleForWriting)
            }
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the suite only where the ariadne bookshelf server runs. Skipped, naming the server and
    /// how to install it, where python3 or ariadne is missing; a failure instead under
    /// `GATEWAY_REQUIRE_PEERS=1`.
    static var requiresAriadne: Self {
        .enabled("\(AriadneBookshelf.skipped)") {
            if try await AriadneBookshelf.shared.value != nil { return true }
            if AriadneBookshelf.isRequired {
                throw AriadneBookshelf.Failure(description: "ariadne is required (GATEWAY_REQUIRE_PEERS=1) but python3 "
                    + "or ariadne is not installed; \(AriadneBookshelf.install)")
            }
            return false
        }
    }
}
