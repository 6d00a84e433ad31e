import Gateway

/// One connection to a Redis server, used synchronously by one thread at a time.
///
/// Connecting sends `AUTH` (when the URL has a password) and `SELECT` (when its database is not
/// 0). `run` pipelines: it writes every command in one go, then reads one reply per command.
/// After any thrown error the connection is in an unknown state and must be dropped.
///
/// A subscriber (pub/sub) would own one of these on a thread of its own and call `readReply`
/// in a loop; commands of the pool never share it.
final class RedisConnection {
    let url: RedisURL
    private let socket: RedisSocket
    private var parser: RESPParser
    private var receiveBuffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Connects and logs in by `deadline`.
    ///
    /// - Throws: `RedisError` of kind `.connection`, `.timeout`, or `.authentication` when
    ///   `AUTH` or `SELECT` is refused.
    init(url: RedisURL, limits: RESPLimits, deadline: ContinuousClock.Instant) throws(RedisError) {
        self.url = url
        socket = try RedisSocket.connect(host: url.host, port: url.port, deadline: deadline)
        parser = RESPParser(limits: limits)
        var handshake: [RedisCommand] = []
        if let password = url.password {
            handshake.append(url.user.map { RedisCommand("AUTH", $0, password) } ?? RedisCommand("AUTH", password))
        }
        if url.database != 0 { handshake.append(RedisCommand("SELECT", String(url.database))) }
        guard !handshake.isEmpty else { return }
        let replies = try run(handshake, deadline: deadline)
        for (command, reply) in zip(handshake, replies) {
            if let message = reply.errorMessage {
                let name = String(decoding: command.arguments[0], as: UTF8.self)
                throw RedisError(.authentication, "Redis at \(url) refused \(name): \(message)")
            }
        }
    }

    /// Sends `commands` in one write and reads their replies, in order, by `deadline`.
    ///
    /// - Returns: one reply per command; a refused command's reply is `.error`.
    /// - Throws: `RedisError` when the connection fails, the deadline passes or the server
    ///   breaks the protocol; the connection must then be dropped.
    func run(_ commands: [RedisCommand], deadline: ContinuousClock.Instant) throws(RedisError) -> [RESPValue] {
        try send(commands, deadline: deadline)
        var replies: [RESPValue] = []
        try readReplies(&replies, count: commands.count, deadline: deadline)
        return replies
    }

    /// Writes `commands` in one go by `deadline`, after checking that the idle connection is sound.
    func send(_ commands: [RedisCommand], deadline: ContinuousClock.Instant) throws(RedisError) {
        // A closed connection is found before anything is sent, so that the command can go on a
        // new one; bytes no command asked for would pair every later reply with the wrong command.
        switch socket.idleState() {
        case .quiet where parser.bufferedCount == 0:
            break
        case .closed:
            throw RedisError(.connection, "Redis at \(url) closed the connection")
        case .quiet, .unexpectedBytes:
            throw RedisError(.protocolViolation, "Redis at \(url) sent bytes that no command asked for")
        }
        try write(commands, deadline: deadline)
    }

    /// Writes `commands` in one go by `deadline`, whatever the server has sent meanwhile: on a
    /// subscription's connection, where messages arrive at any time.
    func write(_ commands: [RedisCommand], deadline: ContinuousClock.Instant) throws(RedisError) {
        var output: [UInt8] = []
        for command in commands { command.encode(into: &output) }
        try socket.send(output, deadline: deadline)
    }

    /// Reads replies into `replies` until it holds `count`, by `deadline`. After a timeout the
    /// replies read so far stay in `replies` and a partly received one in the parser, so reading
    /// can go on later (on another thread) with a later deadline.
    func readReplies(_ replies: inout [RESPValue], count: Int, deadline: ContinuousClock.Instant) throws(RedisError) {
        replies.reserveCapacity(count)
        while replies.count < count {
            replies.append(try readReply(deadline: deadline))
        }
    }

    /// Reads the next reply by `deadline`.
    func readReply(deadline: ContinuousClock.Instant) throws(RedisError) -> RESPValue {
        while true {
            do {
                if let reply = try parser.next() { return reply }
            } catch {
                throw RedisError(.protocolViolation, "Redis at \(url) broke the protocol: \(error.message)")
            }
            var outcome: Result<Int, RedisError> = .success(0)
            receiveBuffer.withUnsafeMutableBytes { buffer in
                do throws(RedisError) {
                    outcome = .success(try socket.receive(into: buffer, deadline: deadline))
                } catch {
                    outcome = .failure(error)
                }
            }
            let count: Int
            switch outcome {
            case .success(let received): count = received
            case .failure(let error): throw error
            }
            receiveBuffer.withUnsafeBytes { parser.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }

    /// The handle that shuts the socket down from another thread (a cancelled call's handler)
    /// while the connection is open.
    var shutdownHandle: TCPSocket.ShutdownHandle { socket.shutdownHandle }

    /// Closes the socket.
    func close() { socket.close() }
}
