import Gateway

/// One TCP connection to Redis: the core's `TCPSocket`, non-blocking with every wait bounded by
/// a deadline in `poll`, its failures as `RedisError`.
///
/// Used by one thread at a time (that of the call owning its `RedisLane`); it is not `Sendable`.
final class RedisSocket {
    typealias IdleState = TCPSocket.IdleState

    private let socket: TCPSocket
    var address: String { socket.address }

    private init(socket: TCPSocket) {
        self.socket = socket
    }

    /// Connects to `host:port`, trying each address the name resolves to, by `deadline`.
    ///
    /// Name resolution (`getaddrinfo`) is not bounded by the deadline: use addresses, or names
    /// the resolver answers at once.
    static func connect(host: String, port: Int, deadline: ContinuousClock.Instant) throws(RedisError) -> RedisSocket {
        do {
            return RedisSocket(socket: try TCPSocket.connect(host: host, port: port, service: "Redis", deadline: deadline))
        } catch {
            throw RedisError(error)
        }
    }

    /// Writes every byte by `deadline`.
    func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(RedisError) {
        do { try socket.send(bytes, deadline: deadline) } catch { throw RedisError(error) }
    }

    /// Looks, without waiting or consuming anything, at what arrived while the connection was idle.
    func idleState() -> IdleState { socket.idleState() }

    /// Reads what has arrived (waiting for something until `deadline`) into `buffer`.
    ///
    /// - Returns: the number of bytes read, at least 1.
    /// - Throws: `RedisError` when the server closed the connection, on an error, or at the deadline.
    func receive(into buffer: UnsafeMutableRawBufferPointer, deadline: ContinuousClock.Instant) throws(RedisError) -> Int {
        do { return try socket.receive(into: buffer, deadline: deadline) } catch { throw RedisError(error) }
    }

    /// The handle that shuts the socket down from another thread while it is open.
    var shutdownHandle: TCPSocket.ShutdownHandle { socket.shutdownHandle }

    /// Closes the descriptor (once).
    func close() { socket.close() }
}

extension RedisError {
    /// The socket's failure, with its message.
    init(_ failure: TCPSocket.Failure) {
        self.init(failure.kind == .timeout ? .timeout : .connection, failure.message)
    }
}
