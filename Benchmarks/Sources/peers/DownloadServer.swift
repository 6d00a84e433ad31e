import Foundation
import GatewayTesting

/// The download benchmark's file and its server: the bytes `gateway bench serve-download` serves
/// (the same pattern), from Gateway's `LoopbackServer` in a child process, with ranges and an `ETag`.
enum DownloadServer {
    /// `bytes` bytes of a pattern that does not repeat every few bytes (xorshift32, as the
    /// `gateway bench download` server makes them).
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

    /// `peers serve download BYTES`: prints the port, then serves `/file.bin` (any path) until
    /// standard input closes.
    static func serve(bytes: Int) async throws {
        let file = payload(bytes)
        let server = try LoopbackServer { request in LoopbackResponse.file(file, for: request, etag: "\"bench\"") }
        FileHandle.standardOutput.write(Data("\(server.port)\n".utf8))
        await Task.detached {
            while let line = readLine(strippingNewline: true), !line.isEmpty {}
        }.value
        server.shutdown()
    }
}

/// Memory readings for the download benchmark, and CPU seconds from a `rusage`.
enum DownloadUsage {
    /// User + system seconds.
    static func seconds(_ usage: rusage) -> Double {
        Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// Resident bytes now (`/proc/self/statm`), after handing the memory glibc holds free back to
    /// the system (`malloc_trim`), so that a later reading counts new allocations; 0 elsewhere.
    static func settledResidentBytes() -> Int {
        #if os(Linux)
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            typealias Trim = @convention(c) (Int) -> Int32
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return 0
        #endif
    }

    /// Resets the peak resident memory (`VmHWM`) to the present one; `false` where Linux refuses.
    static func resetPeak() -> Bool {
        #if os(Linux)
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
        #else
        return false
        #endif
    }

    /// The peak resident memory (`VmHWM`) in bytes, where it can be read.
    static func peakResidentBytes() -> Int? {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        #else
        return nil
        #endif
    }
}
