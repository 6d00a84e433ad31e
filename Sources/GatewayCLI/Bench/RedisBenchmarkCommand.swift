import Foundation
import GatewayRedis

/// A `redis-benchmark` run with one client (`-c 1`) measuring `GET` latency against the server of
/// a Redis URL: of the value at `key` (which the caller stored, `valueBytes` long), or, without a
/// key, of the value its own `SET` test stores first (`-t set,get -d valueBytes`), for running by hand.
struct RedisBenchmarkCommand {
    /// What `redis-benchmark --csv` reported for the GET test, in seconds.
    struct Latency {
        var average: Double
        var p50: Double
        var p95: Double
        var p99: Double
    }

    let url: RedisURL
    let requests: Int
    let valueBytes: Int
    let key: String?

    /// The arguments; `password` in place of the URL's password.
    func arguments(password: String?) -> [String] {
        var arguments = ["-h", url.host, "-p", String(url.port)]
        if let password {
            if let user = url.user { arguments += ["--user", user] }
            arguments += ["-a", password]
        }
        if url.database != 0 { arguments += ["--dbnum", String(url.database)] }
        arguments += ["-c", "1", "-n", String(requests), "--csv"]
        if let key { return arguments + ["GET", key] }
        return arguments + ["-d", String(valueBytes), "-t", "set,get"]
    }

    /// The command line as it can be typed, the password hidden.
    var shown: String {
        let words = ["redis-benchmark"] + arguments(password: url.password.map { _ in "***" })
        return words.map(Self.quoted).joined(separator: " ")
    }

    /// The `redis-benchmark` on `PATH`, if any.
    static func executable(environment: [String: String]) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/redis-benchmark"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs it and reads its GET row.
    ///
    /// - Throws: `BenchmarkFailure` when it cannot start, fails, or prints no GET row.
    func run(_ executable: String) async throws -> Latency {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments(password: url.password)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw BenchmarkFailure(message: "could not run \(executable): \(error)", status: 2)
        }
        // Read to the end on a thread that may block, then collect the exit status.
        let data = await Task.detached { output.fileHandleForReading.readDataToEndOfFile() }.value
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0, let latency = Self.getLatency(csv: text) else {
            throw BenchmarkFailure(
                message: "\(shown) did not report a GET latency (exit status \(process.terminationStatus)): "
                    + text.trimmingCharacters(in: .whitespacesAndNewlines).prefix(300),
                status: 2)
        }
        return latency
    }

    /// The GET row of `redis-benchmark --csv` output ("test","rps","avg_latency_ms","min_latency_ms",
    /// "p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"); `nil` without one.
    static func getLatency(csv: String) -> Latency? {
        for line in csv.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }
            guard fields.count >= 7, fields[0].hasPrefix("GET") else { continue }
            let milliseconds = fields.dropFirst(2).map { Double($0) }
            guard let average = milliseconds[0], let p50 = milliseconds[2], let p95 = milliseconds[3],
                  let p99 = milliseconds[4]
            else { continue }
            return Latency(average: average / 1000, p50: p50 / 1000, p95: p95 / 1000, p99: p99 / 1000)
        }
        return nil
    }

    /// A word quoted for a POSIX shell when it needs to be.
    static func quoted(_ word: String) -> String {
        if !word.isEmpty, word.allSatisfy({ $0.isLetter || $0.isNumber || "-_.:/,=@%+".contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
