import Foundation
import Gateway
import GatewayLoopback
import GraphQLLanguage

/// `gateway bench download`: a large file downloaded through a `Provider` (URLSessionTransport)
/// and with `curl -o`, from the same loopback server in the same run, taking turns.
///
/// The server runs in a child process (`gateway bench serve-download`), so this process's
/// resident memory is the client's alone. Before each Provider download the peak resident
/// memory is reset where Linux allows it (`/proc/self/clear_refs`) and read after it
/// (`VmHWM`); elsewhere, and where the reset is refused, the resident memory sampled while the
/// download runs stands in for the peak. With `writerBytesPerSecond`, the body reaches the file no
/// faster than that (`ThrottledTransport`), as on a slow disk: URLSessionTransport then ends the
/// exchange at its buffer limit and asks for the rest with a range, and the report counts how often.
struct DownloadBenchmark {
    var bytes: Int
    var runs: Int
    var inProcess: Bool
    var writerBytesPerSecond: Double?
    /// URLSessionTransport's `bodyBufferLimit` (its default when `nil`).
    var bufferLimit: Int?

    /// What was measured.
    struct Report {
        var bytes: Int
        var gatewayMBPerSecond: [Double]
        var curlMBPerSecond: [Double]
        var peakGrowth: [Int]
        var peakSource: String
        var serverInChild: Bool
        /// The download whose connection the server dropped halfway: the range it resumed with
        /// (`nil`: it did not resume), and whether the file's SHA-256 is the served file's.
        var resumedWith: String?
        var hashMatches = false
        /// The pace of the file writer, when throttled.
        var writerBytesPerSecond: Double?
        /// URLSessionTransport's bodies ended at its buffer limit, and the bytes it dropped after that.
        var pauses = 0
        var droppedBytes = 0
        /// URLSessionTransport's `bodyBufferLimit` in the run.
        var bufferLimit = Int.max

        static func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        }

        var ratio: Double {
            let curl = Self.median(curlMBPerSecond)
            return curl > 0 ? Self.median(gatewayMBPerSecond) / curl : 0
        }

        var text: String {
            let mib = { (value: Int) in String(format: "%.1f MiB", Double(value) / 1_048_576) }
            return [
                "download: \(bytes) bytes from the loopback server "
                    + "(\(serverInChild ? "child process" : "this process")), "
                    + "\(gatewayMBPerSecond.count) runs each, taking turns",
                "| client | MB/s (median) | runs |",
                "|---|---|---|",
                "| Provider.download (URLSessionTransport) | " + String(format: "%.0f", Self.median(gatewayMBPerSecond))
                    + " | " + gatewayMBPerSecond.map { String(format: "%.0f", $0) }.joined(separator: ", ") + " |",
                "| curl -o | " + String(format: "%.0f", Self.median(curlMBPerSecond)) + " | "
                    + curlMBPerSecond.map { String(format: "%.0f", $0) }.joined(separator: ", ") + " |",
                String(format: "Provider.download / curl: %.2f", ratio),
                "peak resident memory growth during a Provider download (\(peakSource)): "
                    + (peakGrowth.map(mib).joined(separator: ", ")) + "; largest " + mib(peakGrowth.max() ?? 0),
                "connection dropped at 50 %: " + (resumedWith.map { "resumed with Range: \($0)" } ?? "not resumed")
                    + "; SHA-256 of the file " + (hashMatches ? "matches" : "DOES NOT match") + " the served file's",
                "file writer: " + (writerBytesPerSecond.map { String(format: "throttled to %.0f MB/s", $0 / 1e6) }
                    ?? "not throttled") + "; bodyBufferLimit "
                    + (bufferLimit == .max ? "none" : mib(bufferLimit)) + "; bodies ended at the buffer limit and continued with a range: \(pauses)"
                    + String(format: " (%.1f MB received after those ends and dropped)", Double(droppedBytes) / 1e6),
            ].joined(separator: "\n")
        }

        var json: JSONValue {
            var object = JSONObject()
            object.append("benchmark", .string("download"))
            object.append("bytes", .int(bytes))
            object.append("gateway_mb_per_s", .double(Self.median(gatewayMBPerSecond)))
            object.append("curl_mb_per_s", .double(Self.median(curlMBPerSecond)))
            object.append("ratio", .double(ratio))
            object.append("peak_rss_growth_bytes", .int(peakGrowth.max() ?? 0))
            object.append("peak_measured_with", .string(peakSource))
            object.append("resumed_with_range", resumedWith.map { .string($0) } ?? .null)
            object.append("resumed_hash_matches", .bool(hashMatches))
            object.append("writer_mb_per_s", writerBytesPerSecond.map { .double($0 / 1e6) } ?? .null)
            object.append("buffer_limit_pauses", .int(pauses))
            object.append("dropped_bytes", .int(droppedBytes))
            return .object(object)
        }
    }

    func run() async throws -> Report {
        let bytes = self.bytes
        let server = try await BenchServer.start(
            inProcess: inProcess, arguments: ["bench", "serve-download", "--bytes", "\(bytes)"],
            handler: Self.handler(serving: inProcess ? Self.payload(bytes) : Data()))
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("file.bin")
        var configuration = URLSessionTransport.Configuration()
        if let bufferLimit { configuration.bodyBufferLimit = bufferLimit }
        let transport = URLSessionTransport(configuration: configuration)
        let paced: any Transport = writerBytesPerSecond.map { ThrottledTransport(transport, bytesPerSecond: $0) }
            ?? transport
        let provider = Provider(baseURL: server.baseURL, transport: paced) { config in
            config.deadline = nil
        }
        var report = Report(bytes: bytes, gatewayMBPerSecond: [], curlMBPerSecond: [], peakGrowth: [],
                            peakSource: PeakMemory.source, serverInChild: server.isChild,
                            writerBytesPerSecond: writerBytesPerSecond)
        for index in 0...runs {
            let (gateway, growth) = try await download(provider, to: destination)
            let curl = try Self.curl(server.baseURL.appendingPathComponent("file.bin"), to: destination, bytes: bytes)
            guard index > 0 else { continue }  // the first round is a warm-up
            report.gatewayMBPerSecond.append(gateway)
            report.curlMBPerSecond.append(curl)
            report.peakGrowth.append(growth)
        }
        let resumed = try await provider.download(Endpoint<Data>.get("dropped.bin"), to: destination,
                                                  resumingPartialFile: false).response
        if resumed.status == 206 { report.resumedWith = resumed.request.headers["Range"] }
        var served = SHA256()
        Self.payload(bytes).withUnsafeBytes { served.update(buffer: $0) }
        report.hashMatches = try Self.sha256(of: destination) == served.finalize()
        let statistics = transport.bufferStatistics.current
        report.pauses = statistics.pauses
        report.bufferLimit = transport.configuration.bodyBufferLimit
        report.droppedBytes = statistics.ignoredBytes
        return report
    }

    /// The server's answers: the file, with ranges; the first answer for `/dropped.bin` that
    /// carries the file's middle byte has its connection closed there (whether it is the whole
    /// file or, after the transport ended an exchange at its buffer limit, the rest).
    static func handler(serving payload: Data) -> LoopbackHandler {
        let dropped = Locked(false)
        let middle = payload.count / 2
        return { request in
            let response = LoopbackResponse.file(payload, for: request, etag: "\"bench\"")
            guard request.path == "/dropped.bin", let start = firstByte(of: response),
                  (start..<(start + response.body.count)).contains(middle)
            else { return response }
            let first = dropped.withLock { dropped -> Bool in
                defer { dropped = true }
                return !dropped
            }
            return first ? response.with(fault: .closeMidBody(afterBytes: middle - start)) : response
        }
    }

    /// Where in the file `response`'s body starts: 0 for the whole file, the first byte of its
    /// `Content-Range` for a part; `nil` for any other answer.
    private static func firstByte(of response: LoopbackResponse) -> Int? {
        if response.status == 200 { return 0 }
        guard response.status == 206, let range = response.headers["Content-Range"], range.hasPrefix("bytes "),
              let dash = range.firstIndex(of: "-")
        else { return nil }
        return Int(range[range.index(range.startIndex, offsetBy: "bytes ".count)..<dash])
    }

    /// The SHA-256 of a file, read a megabyte at a time.
    private static func sha256(of file: URL) throws -> [UInt8] {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var hasher = SHA256()
        while let piece = try handle.read(upToCount: 1 << 20), !piece.isEmpty {
            piece.withUnsafeBytes { hasher.update(buffer: $0) }
        }
        return hasher.finalize()
    }

    /// One Provider download: MB/s and the growth of peak resident memory.
    private func download(_ provider: Provider, to destination: URL) async throws -> (Double, Int) {
        try? FileManager.default.removeItem(at: destination)
        let reset = PeakMemory.reset()
        let before = ResidentMemory.settledBytes()
        var sampled = before
        let started = ContinuousClock.now
        let task = provider.download(Endpoint<Data>.get("file.bin"), to: destination, resumingPartialFile: false)
        var nextSample: Int64 = 0
        for await step in task.progress where step.completedBytes >= nextSample {
            sampled = max(sampled, ResidentMemory.bytes())
            nextSample = step.completedBytes + 8 * 1_048_576
        }
        _ = try await task.value
        let elapsed = ContinuousClock.now - started
        sampled = max(sampled, ResidentMemory.bytes())
        try Self.check(destination, bytes: bytes, client: "Provider.download")
        let peak = reset ? max(PeakMemory.bytes() ?? sampled, sampled) : sampled
        return (Self.megabytesPerSecond(bytes, elapsed), max(0, peak - before))
    }

    /// One `curl -s -o` of the same file: MB/s.
    private static func curl(_ url: URL, to destination: URL, bytes: Int) throws -> Double {
        try? FileManager.default.removeItem(at: destination)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-s", "-f", "-o", destination.path, url.absoluteString]
        let started = ContinuousClock.now
        try process.run()
        process.waitUntilExit()
        let elapsed = ContinuousClock.now - started
        guard process.terminationStatus == 0 else {
            throw BenchError("curl -o \(url) ended with status \(process.terminationStatus); is curl installed?")
        }
        try check(destination, bytes: bytes, client: "curl")
        return megabytesPerSecond(bytes, elapsed)
    }

    private static func check(_ file: URL, bytes: Int, client: String) throws {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber
        guard size?.intValue == bytes else {
            throw BenchError("\(client) wrote \(size?.intValue ?? 0) bytes to \(file.path), not \(bytes)")
        }
    }

    private static func megabytesPerSecond(_ bytes: Int, _ elapsed: Duration) -> Double {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds > 0 ? Double(bytes) / 1e6 / seconds : 0
    }

    /// The file served: `bytes` bytes of a pattern that does not repeat every few bytes.
    static func payload(_ bytes: Int) -> Data {
        var data = Data(count: bytes)
        data.withUnsafeMutableBytes { buffer in
            var state: UInt32 = 2_463_534_242
            for index in buffer.indices {
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                buffer[index] = UInt8(truncatingIfNeeded: state)
            }
        }
        return data
    }

    /// `gateway bench serve-download --bytes N`: the child process's server. Prints its port,
    /// then serves until standard input closes.
    static func serve(bytes: Int, output: Output) async throws {
        let server = try LoopbackServer(handler: handler(serving: Self.payload(bytes)))
        output.print("\(server.port)")
        await Task.detached {
            while let line = readLine(strippingNewline: true), !line.isEmpty {}
        }.value
        server.shutdown()
    }
}

/// `gateway bench download`.
struct DownloadBenchmarkEntry: Benchmark {
    var name: String { "download" }
    var summary: String {
        "A large file through Provider.download against curl -o from one loopback server: MB/s and peak memory"
    }
    var usage: String { "[--bytes N] [--runs N] [--in-process] [--writer-mbps N] [--buffer-mib N]" }
    var options: [BenchmarkOption] {
        [
            .value("bytes", help: "The file's size (default 200,000,000)."),
            .value("runs", help: "Measured runs of each client after a warm-up, taking turns (default 3)."),
            .flag("in-process", help: "Serve from this process instead of a child process (its memory then counts)."),
            .value("writer-mbps", help: "Hand the body to the file writer no faster than N MB/s, as a slow disk."),
            .value("buffer-mib", help: "URLSessionTransport's bodyBufferLimit in MiB (default 8; 0: no limit)."),
        ]
    }

    func run(_ input: BenchmarkInput, runner: BenchmarkRunner) async throws -> [BenchmarkResult] {
        let benchmark = DownloadBenchmark(
            bytes: max(1, try input.count("bytes") ?? 200_000_000), runs: max(1, try input.count("runs") ?? 3),
            inProcess: input.flag("in-process"),
            writerBytesPerSecond: try input.count("writer-mbps").map { Double(max(1, $0)) * 1e6 },
            bufferLimit: try input.count("buffer-mib").map { $0 > 0 ? $0 * 1_048_576 : .max })
        let report = try await benchmark.run()
        input.output.print(input.json ? report.json.serialized(.compact) : report.text)
        return []
    }
}

/// `gateway bench serve-download`: the download benchmark's server in a child process (internal).
struct ServeDownloadBenchmarkEntry: Benchmark {
    var name: String { "serve-download" }
    var summary: String { "The loopback server the download benchmark starts in a child process (internal)" }
    var usage: String { "--bytes N" }
    var options: [BenchmarkOption] { [.value("bytes", help: "The file's size.")] }

    func run(_ input: BenchmarkInput, runner: BenchmarkRunner) async throws -> [BenchmarkResult] {
        try await DownloadBenchmark.serve(bytes: max(1, try input.count("bytes") ?? 200_000_000), output: input.output)
        return []
    }
}
