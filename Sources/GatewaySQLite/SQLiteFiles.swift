import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of one SQLite database: the main file and its `-wal`, `-shm` and `-journal` companions.
struct SQLiteFiles: Sendable {
    /// The main database file.
    let path: String

    /// The main file and every companion SQLite may create next to it.
    var all: [String] { [path, path + "-wal", path + "-shm", path + "-journal"] }

    /// The sum of the sizes of the files that exist.
    var totalSize: Int { all.reduce(0) { $0 + SQLiteFiles.size(of: $1) } }

    /// Whether the main file exists.
    var exists: Bool { access(path, F_OK) == 0 }

    /// The size of a file, or 0 when it does not exist.
    static func size(of path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return Int(info.st_size)
    }

    /// The permission bits of a file, or `nil` when it does not exist.
    static func permissions(of path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mode) & 0o777
    }

    /// Makes the directory (0700, with any missing parents) and creates the main file 0600 when
    /// missing, so that SQLite (which gives the companions the main file's mode) never makes a
    /// file others can read.
    ///
    /// - Throws: `GatewayError`-ready text: what failed and the system's reason.
    func prepare() throws(SQLiteFileError) {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try SQLiteFiles.makeDirectory(directory) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
        } else if errno != EEXIST {
            throw SQLiteFileError("could not create the cache database file", path: path, errno: errno)
        }
    }

    /// Deletes the main file and every companion; a missing file is fine.
    ///
    /// - Returns: the files that could not be deleted, with the system's reason.
    @discardableResult
    func delete() -> [String] {
        var failures: [String] = []
        for file in all where unlink(file) != 0 && errno != ENOENT {
            failures.append("\(file): \(String(cString: strerror(errno)))")
        }
        return failures
    }

    /// Creates `directory` and its missing parents, each 0700 (existing ones are left as they are).
    private static func makeDirectory(_ directory: String) throws(SQLiteFileError) {
        var missing: [String] = []
        var current = directory
        var info = stat()
        while !current.isEmpty, stat(current, &info) != 0 {
            missing.append(current)
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current { break }
            current = parent
        }
        if missing.isEmpty, (info.st_mode & S_IFMT) != S_IFDIR {
            throw SQLiteFileError("the cache directory is a file, not a directory", path: directory, errno: ENOTDIR)
        }
        for path in missing.reversed() where mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw SQLiteFileError("could not create the cache directory", path: path, errno: errno)
        }
    }
}

/// A file-system failure around the database files, with the system's reason.
struct SQLiteFileError: Error, CustomStringConvertible {
    let message: String
    let path: String
    let reason: String
    /// The system's error number.
    let code: Int32

    init(_ message: String, path: String, errno code: Int32) {
        self.message = message
        self.path = path
        self.code = code
        self.reason = String(cString: strerror(code))
    }

    var description: String { "\(message) at \(path): \(reason)" }
}
