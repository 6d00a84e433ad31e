#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One TCP connection's descriptor, non-blocking, with every wait bounded by a deadline in `poll`:
/// the socket under the Redis client and `SocketWebSocketTransport`.
///
/// Owned by one thread at a time for reading and one for writing; it is not `Sendable`.
/// Messages name the peer as `service at host:port` (`Redis at 127.0.0.1:6379`).
package final class TCPSocket {
    #if canImport(Glibc)
    static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    private static let peekFlags = Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)
    #else
    static let streamType = SOCK_STREAM
    private static let sendFlags: Int32 = 0
    private static let peekFlags = MSG_PEEK | MSG_DONTWAIT
    #endif

    /// Why a socket call failed.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What kind of failure.
        package enum Kind: Sendable, Hashable {
            /// The peer could not be reached, or the connection broke or was closed.
            case connection
            /// The deadline passed.
            case timeout
        }

        /// What kind of failure.
        package let kind: Kind
        /// What happened, with the peer's address.
        package let message: String

        package var description: String { message }
    }

    /// What an idle connection holds.
    package enum IdleState {
        /// Nothing: ready for a request.
        case quiet
        /// The peer closed it (or reset it).
        case closed
        /// Bytes that no request asked for.
        case unexpectedBytes
    }

    private var fd: Int32
    /// `host:port` (`[host]:port` for an IPv6 address).
    package let address: String
    /// The peer's name in messages (`Redis`, `the WebSocket server`).
    package let service: String

    private init(fd: Int32, address: String, service: String) {
        self.fd = fd
        self.address = address
        self.service = service
    }

    deinit { close() }

    /// Connects to `host:port`, trying each address the name resolves to, by `deadline`.
    ///
    /// Resolving the name counts against the deadline too: `resolver` runs on a thread of its
    /// own, and a resolver that has not answered by the deadline is left to finish there while
    /// this throws `.timeout`.
    ///
    /// - Parameters:
    ///   - service: the peer's name in messages.
    ///   - resolver: what turns the host name into addresses; the system's (`getaddrinfo`) by default.
    package static func connect(host: String, port: Int, service: String, deadline: ContinuousClock.Instant,
                                resolver: @escaping Resolver = TCPSocket.systemResolver) throws(Failure) -> TCPSocket {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let addresses = try resolve(host, port, service: service, deadline: deadline, with: resolver)
        var lastError = Failure(kind: .connection, message: "could not connect to \(service) at \(address): "
                                + "the host name \(host) resolved to no address")
        for resolved in addresses {
            let fd = socket(resolved.family, streamType, 0)
            guard fd >= 0 else {
                lastError = error("socket", address)
                continue
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var yes: Int32 = 1
            #if canImport(Glibc)
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            #else
            _ = setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let candidate = TCPSocket(fd: fd, address: address, service: service)
            do {
                try candidate.finishConnecting(resolved, deadline: deadline)
                return candidate
            } catch {
                lastError = error
                candidate.close()
            }
        }
        throw lastError
    }

    private func finishConnecting(_ resolved: ResolvedAddress, deadline: ContinuousClock.Instant) throws(Failure) {
        let status = resolved.socketAddress.withUnsafeBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress else { return -1 }
            return posixConnect(fd, base.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count))
        }
        if status == 0 { return }
        guard errno == EINPROGRESS || errno == EINTR else {
            throw Self.error("connect to \(service) at", self.address)
        }
        try wait(for: Int16(POLLOUT), deadline: deadline, doing: "connecting to")
        var code: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &size)
        guard code == 0 else {
            throw Failure(kind: .connection,
                          message: "could not connect to \(service) at \(self.address): \(Self.text(code))")
        }
    }

    /// Writes every byte by `deadline`.
    package func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress, fd >= 0 else { return -1 }
                return posixSend(fd, base + offset, buffer.count - offset, Self.sendFlags)
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                try wait(for: Int16(POLLOUT), deadline: deadline, doing: "sending to")
            } else {
                throw Self.error("send to \(service) at", address)
            }
        }
    }

    /// Looks, without waiting or consuming anything, at what arrived while the connection was idle.
    package func idleState() -> IdleState {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Self.peekFlags)
        if count > 0 { return .unexpectedBytes }
        if count == 0 { return .closed }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .quiet : .closed
    }

    /// Reads what has arrived (waiting for something until `deadline`) into `buffer`.
    ///
    /// - Returns: the number of bytes read, at least 1.
    /// - Throws: `Failure` when the peer closed the connection, on an error, or at the deadline.
    package func receive(into buffer: UnsafeMutableRawBufferPointer,
                         deadline: ContinuousClock.Instant) throws(Failure) -> Int {
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return count }
            if count == 0 { throw Failure(kind: .connection, message: "\(service) at \(address) closed the connection") }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                throw Self.error("receive from \(service) at", address)
            }
            try wait(for: Int16(POLLIN), deadline: deadline, doing: "waiting for a reply from")
        }
    }

    private func wait(for events: Int16, deadline: ContinuousClock.Instant, doing action: String) throws(Failure) {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw Failure(kind: .timeout, message: "timed out \(action) \(service) at \(address)")
            }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw Self.error("poll", address) }
        }
    }

    /// Shuts both directions down without closing the descriptor: a read waiting on another
    /// thread wakes and finds the connection closed. Safe from any thread while the socket is open.
    package func shutDown() {
        guard fd >= 0 else { return }
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }

    /// A handle that shuts this socket down from another thread (see `shutDown()`), for a
    /// cancellation handler while a read or write waits.
    ///
    /// It names the descriptor, so its user must make sure the socket is still open when it is
    /// used (a closed descriptor's number may already belong to another file): the Redis client
    /// hands it out and closes the socket under one lock.
    package struct ShutdownHandle: Sendable {
        fileprivate let fd: Int32

        /// Shuts both directions down: a read or write waiting on the socket wakes and fails.
        package func shutDown() {
            guard fd >= 0 else { return }
            _ = shutdown(fd, Int32(SHUT_RDWR))
        }
    }

    /// The handle that shuts this socket down from another thread while it is open.
    package var shutdownHandle: ShutdownHandle { ShutdownHandle(fd: fd) }

    /// Closes the descriptor (once).
    package func close() {
        guard fd >= 0 else { return }
        posixClose(fd)
        fd = -1
    }

    private static func error(_ call: String, _ address: String) -> Failure {
        Failure(kind: .connection, message: "could not \(call) \(address): \(text(errno))")
    }

    private static func text(_ code: Int32) -> String {
        (strerror(code).map { String(cString: $0) } ?? "error") + " (errno \(code))"
    }
}

// Free functions, so that the names reach the C library past `TCPSocket`'s own `send` and `close`.
private func posixConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}

private func posixSend(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(fd, bytes, count, flags)
}

private func posixClose(_ fd: Int32) {
    _ = close(fd)
}
