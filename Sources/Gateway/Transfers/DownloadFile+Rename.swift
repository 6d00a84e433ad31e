import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension DownloadFile {
    /// Renames `source` to `destination` in one step (`rename(2)`), replacing a file there:
    /// a reader of the destination sees the old file or the new one, never part of either.
    ///
    /// - Throws: `GatewayError` of kind `.download` naming both paths and the system's reason.
    static func rename(_ source: URL, to destination: URL) throws {
        guard systemRename(source.path, destination.path) != 0 else { return }
        let code = errno
        let reason = String(cString: strerror(code))
        var fix = "check that \(destination.deletingLastPathComponent().path) is writable"
        if code == EXDEV { fix = "the partial file and the destination must be on the same file system" }
        if code == EISDIR { fix = "give a file path, not a folder, as the destination" }
        throw GatewayError(.download, "the downloaded file could not be moved from \(source.path) to "
                               + "\(destination.path): \(reason)", fix: fix)
    }
}

/// `rename(2)`, named apart from `DownloadFile.rename(_:to:)`.
private func systemRename(_ source: String, _ destination: String) -> Int32 {
    #if canImport(Glibc)
    Glibc.rename(source, destination)
    #elseif canImport(Musl)
    Musl.rename(source, destination)
    #else
    Darwin.rename(source, destination)
    #endif
}
