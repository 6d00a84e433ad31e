#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Gateway

/// Where a command writes: standard output and standard error, with what it knows of the terminal.
///
/// Tests make one that collects the text instead of printing it.
public struct Output: Sendable {
    /// Writes bytes to standard output.
    public var writeOut: @Sendable (Data) -> Void
    /// Writes text to standard error.
    public var writeError: @Sendable (String) -> Void
    /// Whether standard output is a terminal (tables may use colour then).
    public var isTerminal: Bool
    /// Whether standard error is a terminal (a progress bar is drawn there only then).
    public var errorIsTerminal: Bool
    /// The environment the command runs in.
    public var environment: [String: String]
    /// The directory relative paths resolve against.
    public var currentDirectory: URL

    public init(
        writeOut: @escaping @Sendable (Data) -> Void,
        writeError: @escaping @Sendable (String) -> Void,
        isTerminal: Bool = false,
        environment: [String: String] = [:],
        currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        errorIsTerminal: Bool = false
    ) {
        self.writeOut = writeOut
        self.writeError = writeError
        self.isTerminal = isTerminal
        self.errorIsTerminal = errorIsTerminal
        self.environment = environment
        self.currentDirectory = currentDirectory
    }

    /// The process's own standard output and error.
    public static var standard: Output {
        Output(
            writeOut: { data in FileHandle.standardOutput.write(data) },
            writeError: { text in FileHandle.standardError.write(Data(text.utf8)) },
            isTerminal: isatty(STDOUT_FILENO) == 1,
            environment: ProcessInfo.processInfo.environment,
            errorIsTerminal: isatty(STDERR_FILENO) == 1
        )
    }

    /// Writes `text` to standard output, followed by a newline unless `terminator` says otherwise.
    public func print(_ text: String, terminator: String = "\n") { writeOut(Data((text + terminator).utf8)) }

    /// Writes `text` and a newline to standard error.
    public func error(_ text: String) { writeError(text + "\n") }

    /// Whether colour may be used: on a terminal, and never with `NO_COLOR` set.
    public var usesColor: Bool { isTerminal && environment["NO_COLOR"] == nil }

    /// Whether colour may be used on standard error: on a terminal, and never with `NO_COLOR` set.
    public var errorUsesColor: Bool { errorIsTerminal && environment["NO_COLOR"] == nil }

    /// Resolves a path given on the command line against the current directory.
    public func url(forPath path: String) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        return currentDirectory.appendingPathComponent(path)
    }
}

/// A sink that collects what a command writes, for tests.
public final class CapturedOutput: Sendable {
    /// What was written so far: only appended to, and read after the command returns.
    private struct Written {
        var out = Data()
        var error = ""
    }

    private let written = Locked(Written())

    public init() {}

    /// An `Output` that writes into this sink.
    public func output(
        environment: [String: String] = [:],
        isTerminal: Bool = false,
        currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        errorIsTerminal: Bool = false
    ) -> Output {
        Output(
            writeOut: { data in self.written.withLock { $0.out.append(data) } },
            writeError: { text in self.written.withLock { $0.error += text } },
            isTerminal: isTerminal,
            environment: environment,
            currentDirectory: currentDirectory,
            errorIsTerminal: errorIsTerminal
        )
    }

    /// Everything written to standard output.
    public var stdout: String { String(decoding: written.value.out, as: UTF8.self) }
    /// The raw bytes written to standard output.
    public var stdoutData: Data { written.value.out }
    /// Everything written to standard error.
    public var stderr: String { written.value.error }
}
