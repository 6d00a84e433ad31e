#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Something a cache store recovered from on its own, reported once so a person can see it.
///
/// A damaged database is the example: the store deletes it, starts empty and keeps serving
/// (requests go to the network), and says so once through its warning handler.
public struct CacheWarning: Sendable, Hashable, CustomStringConvertible {
    /// What happened and what the store did about it.
    public var message: String
    /// The database file concerned, when there is one.
    public var path: String?

    /// Creates a warning.
    public init(_ message: String, path: String? = nil) {
        self.message = message
        self.path = path
    }

    /// The message, with the path when there is one.
    public var description: String {
        guard let path else { return message }
        return "\(message) (\(path))"
    }

    /// The default handler: one line on standard error, `gateway: warning: ...`.
    public static let printToStandardError: @Sendable (CacheWarning) -> Void = { warning in
        let line = "gateway: warning: \(warning)\n"
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }
}
