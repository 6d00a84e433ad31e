import Foundation

/// A `TokenStore` in a JSON file of its own directory, safe against crashes and other users.
///
/// - **Atomic.** `save` writes a temporary file next to the credential file, flushes it to
///   disk (`fsync`), renames it over the old file and flushes the directory: a reader, or a
///   process that crashed half way, sees the old credential or the new one, never a mix.
/// - **Private.** The file is created with mode 0600 in a directory with mode 0700, whatever
///   the process's umask. The directory is created when missing; an existing one must belong to
///   this user and be closed to others.
/// - **Refusing.** A credential file that others can read or write, that belongs to another
///   user, or that is a symbolic link is refused with an error saying how to fix it; the
///   store never reads tokens others could have seen or planted.
///
/// ```swift
/// let support = try FileManager.default.url(for: .applicationSupportDirectory, in: .userDomainMask,
///                                           appropriateFor: nil, create: true)
/// let provider = Provider(baseURL: api) { config in
///     config.tokens = FileTokenStore(directory: support.appendingPathComponent("Tokens"))
/// }
/// ```
/// The file holds `{"format": 1, "credential": {"access_token": …, "refresh_token": …,
/// "expires_at": …, "subject": …}}`. Errors are `GatewayError`s of kind `.tokenStore` naming
/// the path.
public final class FileTokenStore: TokenStore, CustomStringConvertible {
    /// The directory the store owns (mode 0700).
    public let directory: URL
    /// The credential file (mode 0600).
    public let fileURL: URL

    /// The largest credential file read; a bigger one is refused as damaged.
    static let maxFileBytes = 1 << 20
    private static let format = 1

    /// Creates a store; nothing touches the disk until the first call.
    ///
    /// - Parameters:
    ///   - directory: a directory for the store alone; created with mode 0700 when missing.
    ///   - fileName: the credential file's name in it.
    public init(directory: URL, fileName: String = "credential.json") {
        self.directory = directory.standardizedFileURL
        fileURL = self.directory.appendingPathComponent(fileName, isDirectory: false)
    }

    /// `FileTokenStore(/path/to/credential.json)`.
    public var description: String { "FileTokenStore(\(fileURL.path))" }

    /// Reads the stored credential.
    ///
    /// - Returns: the credential, or `nil` when the directory or the file does not exist.
    /// - Throws: `GatewayError` of kind `.tokenStore` when the directory or file is open to
    ///   others, belongs to another user, is not a regular file, or cannot be read or decoded;
    ///   the file is left as it is.
    public func load() throws -> Credential? {
        guard try checkDirectory(creating: false) else { return nil }
        guard let bytes = try POSIXFile.readPrivateFile(at: fileURL.path, limit: Self.maxFileBytes) else {
            return nil
        }
        do {
            return try JSONDecoder().decode(StoredFile.self, from: bytes).credential
        } catch {
            throw failure(
                "the credential file \(fileURL.path) is not a credential this store wrote (\(Self.summary(error)))",
                fix: "delete the file and sign in again", underlying: error)
        }
    }

    /// Writes `credential` atomically: temporary file (0600), `fsync`, rename, directory `fsync`.
    ///
    /// - Throws: `GatewayError` of kind `.tokenStore` when the directory cannot be created or is
    ///   open to others, or the file cannot be written; the old credential stays in place.
    public func save(_ credential: Credential) throws {
        _ = try checkDirectory(creating: true)
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            data = try encoder.encode(StoredFile(format: Self.format, credential: credential))
        } catch {
            throw failure("the credential could not be encoded", fix: nil, underlying: error)
        }
        let temporary = directory.appendingPathComponent(
            ".\(fileURL.lastPathComponent).\(UUID().uuidString).tmp", isDirectory: false)
        try POSIXFile.writeAtomically(data, to: fileURL.path, through: temporary.path, directory: directory.path)
    }

    /// Removes the credential file and any temporary file a crashed `save` left behind.
    ///
    /// - Throws: `GatewayError` of kind `.tokenStore` when a file exists and cannot be removed.
    public func clear() throws {
        guard try checkDirectory(creating: false) else { return }
        let prefix = ".\(fileURL.lastPathComponent)."
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in leftovers where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            try POSIXFile.remove(directory.appendingPathComponent(name).path)
        }
        try POSIXFile.remove(fileURL.path)
        POSIXFile.syncDirectory(directory.path)
    }

    /// Checks that the directory is this user's and closed to others; creates it (0700) when
    /// missing and `creating` is set.
    ///
    /// - Returns: whether the directory exists now.
    private func checkDirectory(creating: Bool) throws -> Bool {
        if !POSIXFile.exists(directory.path) {
            guard creating else { return false }
            try POSIXFile.makePrivateDirectory(directory)
        }
        try POSIXFile.checkPrivateDirectory(directory.path)
        return true
    }

    private func failure(_ message: String, fix: String?, underlying: (any Error)?) -> GatewayError {
        GatewayError(.tokenStore, message, fix: fix, underlying: underlying)
    }

    /// A decoding error in a few words, without the file's contents.
    private static func summary(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "not valid JSON" }
        switch decoding {
        case .keyNotFound(let key, _): return "no \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "not valid JSON" : "a bad value at \(path)"
        @unknown default: return "not valid JSON"
        }
    }

    /// The file's layout.
    private struct StoredFile: Codable {
        var format: Int
        var credential: Credential
    }
}

extension TokenStore where Self == FileTokenStore {
    /// A JSON file store in `directory` (mode 0700, file 0600).
    public static func file(directory: URL) -> FileTokenStore { FileTokenStore(directory: directory) }
}
