#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One TCP connection's descriptor, non-blocking, with every wait bounded by a deadline in `poll`.
///
/// Owned by one thread at a time (a `RedisWorker`'s); it is not `Sendable`.
final class RedisSocket {
    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    private static let peekFlags = Int32(MSG_PEEK) | Int32(MSG_DONTWAIT)
    #else
    private static let streamType = SOCK_STREAM
    private static let sendFlags: Int32 = 0
    private static let peekFlags = MSG_PEEK | MSG_DONTWAIT
    #endif

    /// What an idle connection holds before a command is sent.
    enum IdleState {
        /// Nothing: ready for a command.
        case quiet
        /// The server closed it (or reset it).
        case closed
        /// Bytes that no command asked for.
        case unexpectedBytes
    }

    private var fd: Int32
    let address: String

    private init(fd: Int32, address: String) {
        self.fd = fd
        self.address = address
    }

    deinit { close() }

    /// Connects to `host:port`, trying each address the name resolves to, by `deadline`.
    ///
    /// Name resolution (`getaddrinfo`) is not bounded by the deadline: use addresses, or names
    /// the resolver answers at once.
    static func connect(host: String, port: Int, deadline: ContinuousClock.Instant) throws(RedisError) -> RedisSocket {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamType
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = gai_strerror(status).map { String(cString: $0) } ?? "error \(status)"
            throw RedisError(.connection, "could not resolve the Redis host \(host): \(reason)")
        }
        defer { freeaddrinfo(list) }
        var lastError = RedisError(.connection, "could not connect to Redis at \(address)")
        var current: UnsafeMutablePointer<addrinfo>? = first
        while let info = current {
            current = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, streamType, 0)
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
            let candidate = RedisSocket(fd: fd, address: address)
            do {
                try candidate.finishConnecting(info.pointee.ai_addr, info.pointee.ai_addrlen, deadline: deadline)
                return candidate
            } catch {
                lastError = error
                candidate.close()
            }
        }
        throw lastError
    }

    private func finishConnecting(_ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t,
                                  deadline: ContinuousClock.Instant) throws(RedisError) {
        if posixConnect(fd, address, length) == 0 { return }
        guard errno == EINPROGRESS || errno == EINTR else { throw Self.error("connect to Redis at", self.address) }
        try wait(for: Int16(POLLOUT), deadline: deadline, doing: "connecting to")
        var code: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &size)
        guard code == 0 else {
            throw RedisError(.connection, "could not connect to Redis at \(self.address): \(Self.text(code))")
        }
    }

    /// Writes every byte by `deadline`.
    func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(RedisError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return posixSend(fd, base + offset, buffer.count - offset, Self.sendFlags)
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                try wait(for: Int16(POLLOUT), deadline: deadline, doing: "sending to")
            } else {
                throw Self.error("send to Redis at", address)
            }
        }
    }

    /// Looks, without waiting or consuming anything, at what arrived while the connection was idle.
    func idleState() -> IdleState {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Self.peekFlags)
        if count > 0 { return .unexpectedBytes }
        if count == 0 { return .closed }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .quiet : .closed
    }

    /// Reads what has arrived (waiting for something until `deadline`) into `buffer`.
    ///
    /// - Returns: the number of bytes read, at least 1.
    /// - Throws: `RedisError` when the server closed the connection, on an error, or at the deadline.
    func receive(into buffer: UnsafeMutableRawBufferPointer, deadline: ContinuousClock.Instant) throws(RedisError) -> Int {
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return count }
            if count == 0 { throw RedisError(.connection, "Redis at \(address) closed the connection") }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
                throw Self.error("receive from Redis at", address)
            }
            try wait(for: Int16(POLLIN), deadline: deadline, doing: "waiting for a reply from")
        }
    }

    private func wait(for events: Int16, deadline: ContinuousClock.Instant, doing action: String) throws(RedisError) {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw RedisError(.timeout, "timed out \(action) Redis at \(address)")
            }
            let (seconds, attoseconds) = remaining.components
            let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw Self.error("poll", address) }
        }
    }

    /// Closes the descriptor (once).
    func close() {
        guard fd >= 0 else { return }
        posixClose(fd)
        fd = -1
    }

    private static func error(_ call: String, _ address: String) -> RedisError {
        RedisError(.connection, "could not \(call) \(address): \(text(errno))")
    }

    private static func text(_ code: Int32) -> String {
        (strerror(code).map { String(cString: $0) } ?? "error") + " (errno \(code))"
    }
}

// Free functions, so that the names reach the C library past `RedisSocket`'s own `send` and `close`.
private func posixConnect(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}

private func posixSend(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(fd, bytes, count, flags)
}

private func posixClose(_ fd: Int32) {
    _ = close(fd)
}
