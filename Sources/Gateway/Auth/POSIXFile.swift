import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file-system calls behind `FileTokenStore`, made directly so that modes do not depend on
/// the umask and every check is made on the file actually opened.
///
/// Every failure is a `GatewayError` of kind `.tokenStore` naming the path, the system's reason
/// and a fix.
enum POSIXFile {
    private static let typeMask: UInt32 = 0o170000
    private static let regularFile: UInt32 = 0o100000
    private static let directoryType: UInt32 = 0o040000

    /// Whether anything exists at `path` (a dangling symbolic link counts).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Creates `directory` with mode 0700 (its parents with the default mode), then sets 0700
    /// again so that the umask cannot narrow or widen it. A directory created meanwhile by
    /// another writer is fine.
    static func makePrivateDirectory(_ directory: URL) throws {
        let parent = directory.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw failure("the directory \(parent.path) could not be created", fix: "check that the path is writable",
                          underlying: error)
        }
        if mkdir(directory.path, 0o700) != 0 {
            let code = errno
            guard code == EEXIST else {
                throw failure("the directory \(directory.path) could not be created: \(reason(code))",
                              fix: "check that the path is writable")
            }
            return
        }
        guard chmod(directory.path, 0o700) == 0 else {
            let code = errno
            throw failure("the mode of \(directory.path) could not be set to 0700: \(reason(code))", fix: nil)
        }
    }

    /// Refuses a directory that is not this user's or that others may enter.
    static func checkPrivateDirectory(_ path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            throw failure("the directory \(path) cannot be examined: \(reason(code))", fix: nil)
        }
        guard UInt32(info.st_mode) & typeMask == directoryType else {
            throw failure("\(path) is not a directory", fix: "give the store a directory of its own")
        }
        guard info.st_uid == geteuid() else {
            throw failure("the directory \(path) belongs to another user (uid \(info.st_uid))",
                          fix: "give the store a directory of its own, owned by this user")
        }
        let mode = UInt32(info.st_mode) & 0o777
        guard mode & 0o077 == 0 else {
            throw failure("the directory \(path) is open to other users (mode \(octal(mode)))",
                          fix: "run `chmod 700 \(path)`, or give the store a directory of its own")
        }
    }

    /// The bytes of the file at `path`, or `nil` when there is none; refuses a file that is not
    /// a regular file of this user's with mode 0600 or narrower, or that is larger than `limit`.
    static func readPrivateFile(at path: String, limit: Int) throws -> Data? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        if descriptor < 0 {
            let code = errno
            if code == ENOENT { return nil }
            if code == ELOOP {
                throw failure("the credential file \(path) is a symbolic link",
                              fix: "delete it and sign in again; the store only reads a file it wrote itself")
            }
            throw failure("the credential file \(path) cannot be opened: \(reason(code))", fix: nil)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            throw failure("the credential file \(path) cannot be examined: \(reason(code))", fix: nil)
        }
        guard UInt32(info.st_mode) & typeMask == regularFile else {
            throw failure("\(path) is not a regular file", fix: "delete it and sign in again")
        }
        guard info.st_uid == geteuid() else {
            throw failure("the credential file \(path) belongs to another user (uid \(info.st_uid))",
                          fix: "delete it and sign in again")
        }
        let mode = UInt32(info.st_mode) & 0o777
        guard mode & 0o077 == 0 else {
            throw failure("the credential file \(path) can be read by other users (mode \(octal(mode))); "
                          + "its tokens may have been seen",
                          fix: "delete it and sign in again (or, if nobody else could reach it, "
                              + "`chmod 600 \(path)`)")
        }
        guard Int64(info.st_size) <= Int64(limit) else {
            throw failure("the credential file \(path) is \(info.st_size) bytes, more than a credential ever is",
                          fix: "delete it and sign in again")
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                throw failure("the credential file \(path) cannot be read: \(reason(code))", fix: nil)
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
            guard data.count <= limit else {
                throw failure("the credential file \(path) is larger than a credential ever is",
                              fix: "delete it and sign in again")
            }
        }
    }

    /// Writes `data` to `temporary` (created 0600, flushed), renames it to `path` and flushes
    /// `directory`; on failure the temporary file is removed and `path` is untouched.
    static func writeAtomically(_ data: Data, to path: String, through temporary: String, directory: String) throws {
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            throw failure("a temporary file could not be created in \(directory): \(reason(code))",
                          fix: "check that the directory is writable and the disk not full")
        }
        var closed = false
        do {
            defer { if !closed { close(descriptor) } }
            guard fchmod(descriptor, 0o600) == 0 else {
                let code = errno
                throw failure("the mode of \(temporary) could not be set to 0600: \(reason(code))", fix: nil)
            }
            try writeAll(data, to: descriptor, path: temporary)
            guard fsync(descriptor) == 0 else {
                let code = errno
                throw failure("\(temporary) could not be flushed to disk: \(reason(code))", fix: nil)
            }
            closed = true
            guard close(descriptor) == 0 else {
                let code = errno
                throw failure("\(temporary) could not be closed: \(reason(code))", fix: nil)
            }
            guard rename(temporary, path) == 0 else {
                let code = errno
                throw failure("\(temporary) could not be renamed to \(path): \(reason(code))", fix: nil)
            }
        } catch {
            unlink(temporary)
            throw error
        }
        syncDirectory(directory)
    }

    /// Removes the file at `path`; a missing file is fine.
    static func remove(_ path: String) throws {
        guard unlink(path) == 0 else {
            let code = errno
            if code == ENOENT { return }
            throw failure("\(path) could not be removed: \(reason(code))",
                          fix: "check the permissions of its directory, then log out again")
        }
    }

    /// Flushes a directory's entries to disk, so that a rename or removal survives a crash.
    /// Best effort: a file system that cannot flush directories is not an error.
    static func syncDirectory(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws {
        try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    throw failure("\(path) could not be written: \(reason(code))",
                                  fix: "check that the disk is not full")
                }
                offset += written
            }
        }
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    private static func octal(_ mode: UInt32) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private static func failure(_ message: String, fix: String?, underlying: (any Error)? = nil) -> GatewayError {
        GatewayError(.tokenStore, message, fix: fix, underlying: underlying)
    }
}
