#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a file no further than the parser will look.
///
/// The parser refuses a document over ``Limits/maxBytes`` before reading any token, so a file is
/// read up to one byte past the limit that will parse it: the parser then refuses it exactly as it
/// would the whole file (same message, same line and column), and a file of any size costs at most
/// that much memory. The bytes go straight into the array, with no second copy.
enum BoundedFile {
    /// Why a file could not be read: the system's reason.
    struct Failure: Error {
        var reason: String
    }

    /// The first `limit + 1` bytes of the file at `path` (all of it when it is no larger).
    static func contents(of path: String, limit: Int) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Failure(reason: reason(errno)) }
        defer { close(descriptor) }
        var info = stat()
        let wanted = limit + 1
        let expected = fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(max(expected, 0), wanted))
        let chunkSize = 1 << 16
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while bytes.count < wanted {
            let count = chunk.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress, min(chunkSize, wanted - bytes.count))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(reason: reason(errno))
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case EISDIR: "it is a directory"
        default: String(cString: strerror(code))
        }
    }
}
