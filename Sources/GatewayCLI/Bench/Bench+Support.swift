#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import GatewayLoopback

/// CPU time (user + system) and context switches this process has used, from `getrusage`.
struct ProcessUsage {
    var cpu: Duration
    var contextSwitches: Int

    static func current() -> ProcessUsage {
        var usage = rusage()
        #if canImport(Glibc)
        _ = getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        _ = getrusage(RUSAGE_SELF, &usage)
        #endif
        func duration(_ time: timeval) -> Duration {
            .seconds(Int64(time.tv_sec)) + .microseconds(Int64(time.tv_usec))
        }
        return ProcessUsage(cpu: duration(usage.ru_utime) + duration(usage.ru_stime),
                            contextSwitches: Int(usage.ru_nvcsw) + Int(usage.ru_nivcsw))
    }

    static func - (lhs: ProcessUsage, rhs: ProcessUsage) -> ProcessUsage {
        ProcessUsage(cpu: lhs.cpu - rhs.cpu, contextSwitches: lhs.contextSwitches - rhs.contextSwitches)
    }
}

/// The pipeline benchmark's server: `gateway bench serve` in a child process, so that this
/// process's CPU time is the client's alone, or a `LoopbackServer` here.
final class BenchServer: Sendable {
    let baseURL: URL
    let isChild: Bool
    private let process: Process?
    private let input: Pipe?
    private let local: LoopbackServer?

    private init(baseURL: URL, process: Process?, input: Pipe?, local: LoopbackServer?) {
        self.baseURL = baseURL
        self.process = process
        self.input = input
        self.local = local
        isChild = process != nil
    }

    /// Starts the server: in this process with `handler`, or as `gateway ARGUMENTS` in a child
    /// process that prints its port and serves until its standard input closes.
    static func start(
        inProcess: Bool, arguments: [String] = ["bench", "serve"],
        handler: @escaping LoopbackHandler = { _ in .data(PipelineBenchmark.body, contentType: "application/json") }
    ) async throws -> BenchServer {
        if inProcess {
            let server = try LoopbackServer(handler: handler)
            return BenchServer(baseURL: server.baseURL, process: nil, input: nil, local: server)
        }
        let process = Process()
        #if os(Linux)
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        #else
        process.executableURL = Bundle.main.executableURL
        #endif
        process.arguments = arguments
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let port: String = await Task.detached {
            var bytes = Data()
            while true {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                bytes.append(chunk)
                if bytes.contains(UInt8(ascii: "\n")) { break }
            }
            return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }.value
        guard let number = Int(port), let url = URL(string: "http://127.0.0.1:\(number)/") else {
            process.terminate()
            throw BenchError("the benchmark server did not start (it printed '\(port)'); try --in-process")
        }
        return BenchServer(baseURL: url, process: process, input: input, local: nil)
    }

    func stop() {
        local?.shutdown()
        if let process, let input {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }
}
