import Foundation

/// The process's peak resident memory (`VmHWM`), which Linux lets a process reset.
enum PeakMemory {
    #if os(Linux)
    static let source = "VmHWM after resetting it through /proc/self/clear_refs"
    #else
    static let source = "resident memory sampled every 8 MiB"
    #endif

    /// Resets the peak to the present resident memory; `false` where that is not possible.
    static func reset() -> Bool {
        #if os(Linux)
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
        #else
        return false
        #endif
    }

    /// The peak resident memory in bytes, where it can be read.
    static func bytes() -> Int? {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        return kilobytes.map { $0 * 1024 }
        #else
        return nil
        #endif
    }
}
