#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers over the POSIX socket calls the server needs. Every descriptor is created
/// close-on-exec so that child processes started by tests never inherit the server's sockets.
enum Socket {
    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    private static let shutdownBoth = Int32(SHUT_RDWR)
    private static let tcpLevel = Int32(IPPROTO_TCP)
    #else
    private static let streamType = SOCK_STREAM
    private static let sendFlags: Int32 = 0
    private static let shutdownBoth = SHUT_RDWR
    private static let tcpLevel = IPPROTO_TCP
    #endif

    /// The text of the current `errno`.
    static func lastError(_ call: String) -> LoopbackServerError {
        let code = errno
        let text = strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return LoopbackServerError("\(call) failed: \(text) (errno \(code))")
    }

    /// A listening TCP socket on 127.0.0.1 with a port chosen by the system.
    ///
    /// - Returns: the descriptor and the port it is bound to.
    static func listenOnLoopback(backlog: Int32 = 256) throws(LoopbackServerError) -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, streamType, 0)
        guard fd >= 0 else { throw lastError("socket") }
        setCloseOnExec(fd)
        var yes: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))

        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let error = lastError("bind to 127.0.0.1")
            _ = close(fd)
            throw error
        }
        guard listen(fd, backlog) == 0 else {
            let error = lastError("listen")
            _ = close(fd)
            throw error
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let error = lastError("getsockname")
            _ = close(fd)
            throw error
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A pipe whose write end wakes a thread waiting in `poll`.
    static func makePipe() throws(LoopbackServerError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw lastError("pipe") }
        setCloseOnExec(fds[0])
        setCloseOnExec(fds[1])
        return (fds[0], fds[1])
    }

    /// Waits until `listener` has a connection or `wake` is readable.
    ///
    /// - Returns: whether the listener is ready.
    static func waitForAccept(listener: Int32, wake: Int32) -> Bool {
        var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            if fds[1].revents != 0 { return false }
            return fds[0].revents & Int16(POLLIN) != 0
        }
    }

    /// Accepts one connection; `nil` when the accept failed (the caller decides whether to go on).
    static func acceptConnection(_ listener: Int32) -> Int32? {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 && errno == EINTR { continue }
            guard fd >= 0 else { return nil }
            setCloseOnExec(fd)
            var yes: Int32 = 1
            _ = setsockopt(fd, tcpLevel, TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            #if canImport(Darwin)
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            return fd
        }
    }

    /// Reads up to `count` bytes into `buffer`.
    ///
    /// - Returns: the number of bytes read; 0 at end of stream; -1 on an error.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            return count
        }
    }

    /// Writes every byte, or returns `false` when the peer is gone.
    static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var pointer = bytes.baseAddress else { return true }
        var remaining = bytes.count
        while remaining > 0 {
            let sent = send(fd, pointer, remaining, sendFlags)
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            pointer += sent
            remaining -= sent
        }
        return true
    }

    /// Writes a byte array; see `sendAll(_:_:)`.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { sendAll(fd, $0) }
    }

    /// Ends both directions so that a thread blocked in `recv` or `send` on `fd` returns.
    static func shutdownBothWays(_ fd: Int32) {
        _ = shutdown(fd, shutdownBoth)
    }

    /// Ends the sending side, then reads and discards what the peer still sends (up to 1 MiB
    /// or one second), so that closing with unread input does not reset the connection before
    /// the peer has read the response.
    static func finishSendingAndDrain(_ fd: Int32) {
        #if canImport(Glibc)
        _ = shutdown(fd, Int32(SHUT_WR))
        #else
        _ = shutdown(fd, SHUT_WR)
        #endif
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        var drained = 0
        while drained < 1024 * 1024 {
            let count = scratch.withUnsafeMutableBytes { receive(fd, into: $0) }
            guard count > 0 else { return }
            drained += count
        }
    }

    /// Closes with a reset (RST) instead of an orderly close.
    static func reset(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        _ = close(fd)
    }

    /// Closes a descriptor.
    static func closeSocket(_ fd: Int32) {
        _ = close(fd)
    }

    /// Writes one byte to a wake pipe.
    static func wake(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }

    private static func setCloseOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
}
