import AsyncHTTPClient
import Foundation
import Gateway
import GatewayAsyncHTTPClient
import NIOCore

/// `peers download`: a large file downloaded through `Provider.download` over
/// `AsyncHTTPClientTransport`, with bare async-http-client writing to a file, and with
/// `curl -s -o`, from one loopback server in a child process, taking turns in one run.
///
/// Each round runs the three clients once, in forward order in odd rounds and reversed in even
/// ones; the first round is a warm-up. Per download: MB/s (the file's bytes over the wall time
/// from the request to the file's last byte written), CPU seconds (user + system: this
/// process's `getrusage` for the two in-process clients, curl's own from `wait4`), and for the
/// in-process clients the growth of peak resident memory (`VmHWM`, reset through
/// `/proc/self/clear_refs` before the download, less the resident memory after `malloc_trim`).
struct DownloadBenchmark {
    var bytes: Int
    var runs: Int
    /// The clients measured (all three by default; fewer to profile one).
    var clients = Client.allCases

    enum Client: Int, CaseIterable, Sendable {
        case provider, bare, curl

        /// The name `--clients` takes.
        var argument: String { ["provider", "bare", "curl"][rawValue] }

        var name: String {
            switch self {
            case .provider: "Provider.download + AsyncHTTPClientTransport"
            case .bare: "bare async-http-client to a file (reference)"
            case .curl: "curl -s -o"
            }
        }
    }

    /// One download.
    struct Sample: Sendable {
        var megabytesPerSecond: Double
        var cpuSeconds: Double
        /// Peak resident memory growth; `nil` for curl (another process).
        var peakGrowth: Int?
    }

    /// Runs the rounds and returns the report (Markdown).
    func run() async throws -> String {
        let server = try ChildProcess(["serve", "download", "\(bytes)"])
        defer { server.finish() }
        let portLine = await server.readLine()
        guard let port = Int(portLine), let url = URL(string: "http://127.0.0.1:\(port)/file.bin") else {
            throw PeerFailure("the download server did not start: '\(portLine)'")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("peers-download-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("file.bin")

        let transport = AsyncHTTPClientTransport()
        let provider = Provider(baseURL: url.deletingLastPathComponent(), transport: transport) { config in
            config.deadline = nil
        }
        let bare = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: AsyncHTTPClientTransport.clientConfiguration(for: .init()))
        var samples = Array(repeating: [Sample](), count: Client.allCases.count)
        var hashes: [String] = []
        do {
            for round in 0...runs {
                let order = round.isMultiple(of: 2) ? clients.reversed() : clients
                for client in order {
                    try? FileManager.default.removeItem(at: destination)
                    let sample: Sample
                    switch client {
                    case .provider: sample = try await measure { try await Self.download(provider, to: destination) }
                    case .bare: sample = try await measure { try await Self.download(bare, url, to: destination) }
                    case .curl: sample = try Self.curl(url, to: destination, bytes: bytes)
                    }
                    try Self.check(destination, bytes: bytes, client: client.name)
                    if round == 1 { hashes.append(try Self.sha256(of: destination)) }
                    if round > 0 { samples[client.rawValue].append(sample) }
                }
            }
        } catch {
            provider.invalidate()
            try? await transport.shutdown()
            try? await bare.shutdown()
            throw error
        }
        provider.invalidate()
        try await transport.shutdown()
        try await bare.shutdown()

        let served = folder.appendingPathComponent("served.bin")
        try DownloadServer.payload(bytes).write(to: served)
        let expected = try Self.sha256(of: served)
        return report(samples, hashesMatch: hashes.count == clients.count && hashes.allSatisfy { $0 == expected })
    }

    /// Times one in-process download: wall time, CPU time and peak memory growth.
    private func measure(_ download: () async throws -> Void) async throws -> Sample {
        let reset = DownloadUsage.resetPeak()
        let before = DownloadUsage.settledResidentBytes()
        let cpu = ProcessUsage.cpuSeconds()
        let started = ContinuousClock.now
        try await download()
        let elapsed = ContinuousClock.now - started
        let used = ProcessUsage.cpuSeconds() - cpu
        let peak = reset ? DownloadUsage.peakResidentBytes() : nil
        return Sample(megabytesPerSecond: Self.megabytesPerSecond(bytes, elapsed), cpuSeconds: used,
                      peakGrowth: peak.map { max(0, $0 - before) })
    }

    /// `Provider.download`, its progress read as a UI would read it.
    private static func download(_ provider: Provider, to destination: URL) async throws {
        let task = provider.download(Endpoint<Data>.get("file.bin"), to: destination, resumingPartialFile: false)
        var steps = 0
        for await _ in task.progress { steps += 1 }
        _ = try await task.value
    }

    /// `HTTPClient.execute` with the transport's client configuration, each body buffer written
    /// to the file with `write(2)` as it arrives.
    private static func download(_ client: HTTPClient, _ url: URL, to destination: URL) async throws {
        let fd = open(destination.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw PeerFailure("could not create \(destination.path)") }
        defer { close(fd) }
        let response = try await client.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(300))
        guard response.status == .ok else { throw PeerFailure("bare async-http-client got \(response.status)") }
        for try await buffer in response.body {
            try buffer.withUnsafeReadableBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                    guard written > 0 else { throw PeerFailure("could not write \(destination.path)") }
                    offset += written
                }
            }
        }
    }

    /// One `curl -s -f -o` of the file: MB/s, and curl's CPU time from `wait4`.
    private static func curl(_ url: URL, to destination: URL, bytes: Int) throws -> Sample {
        let arguments = ["curl", "-s", "-f", "-o", destination.path, url.absoluteString]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let started = ContinuousClock.now
        let spawned = posix_spawnp(&pid, "curl", nil, nil, &argv, environ)
        guard spawned == 0 else { throw PeerFailure("could not start curl (posix_spawnp: \(spawned)); is it installed?") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw PeerFailure("waiting for curl failed (errno \(errno))") }
        }
        let elapsed = ContinuousClock.now - started
        guard status == 0 else { throw PeerFailure("curl -o \(url) ended with wait status \(status)") }
        return Sample(megabytesPerSecond: megabytesPerSecond(bytes, elapsed), cpuSeconds: DownloadUsage.seconds(usage),
                      peakGrowth: nil)
    }

    private static func check(_ file: URL, bytes: Int, client: String) throws {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber
        guard size?.intValue == bytes else {
            throw PeerFailure("\(client) wrote \(size?.intValue ?? 0) bytes to \(file.path), not \(bytes)")
        }
    }

    /// The file's SHA-256 from `sha256sum`.
    private static func sha256(of file: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let hash = String(decoding: data, as: UTF8.self).split(separator: " ").first
        else { throw PeerFailure("sha256sum \(file.path) failed") }
        return String(hash)
    }

    private static func megabytesPerSecond(_ bytes: Int, _ elapsed: Duration) -> Double {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds > 0 ? Double(bytes) / 1e6 / seconds : 0
    }
}
