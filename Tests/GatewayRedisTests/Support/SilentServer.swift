import Foundation
import Gateway
import GatewayTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP listener on 127.0.0.1 standing in for a broken Redis: silent (it accepts connections
/// into its backlog and never answers: a Redis that is up but too slow), or scripted (it answers
/// whatever it is sent with the same bytes, on a thread of its own: a hostile server).
final class SilentServer: Sendable {
    let port: Int
    private let fd: Int32
    /// The descriptors still open: the listener's (while `listening`) and the accepted connections.
    /// A descriptor is closed and shut down only under this lock, so never after its number was reused.
    private let open = Locked(Descriptors())
    /// Whether a thread accepts connections (and closes the listener once it is shut down).
    private let answers: Bool

    private struct Descriptors {
        var listening = true
        var connections: [Int32] = []
    }

    /// A listener that never answers.
    convenience init() throws {
        try self.init(answer: nil)
    }

    /// A listener that answers every read on every connection with `answer` (never, when `nil`).
    init(answer: [UInt8]?) throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw RedisServerError("socket failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr = in_addr(s_addr: UInt32(0x7f00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> Bool in
                bind(fd, address, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw RedisServerError("could not listen on 127.0.0.1")
        }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        answers = answer != nil
        guard let answer else { return }
        let open = open
        // Each thread closes the descriptor it uses once it is done with it: a descriptor closed
        // under a thread could be reused by another test's socket, which the thread would then read.
        let thread = Thread {
            while true {
                let connection = accept(fd, nil, nil)
                guard connection >= 0 else { break }
                open.withLock { $0.connections.append(connection) }
                let reader = Thread {
                    var scratch = [UInt8](repeating: 0, count: 4096)
                    while scratch.withUnsafeMutableBytes({ recv(connection, $0.baseAddress, $0.count, 0) }) > 0 {
                        _ = answer.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
                    }
                    open.withLock { descriptors in
                        descriptors.connections.removeAll { $0 == connection }
                        close(connection)
                    }
                }
                reader.start()
            }
            open.withLock { descriptors in
                descriptors.listening = false
                close(fd)
            }
        }
        thread.start()
    }

    deinit {
        // Shutting the listener down wakes the accepting thread, and shutting the connections
        // down ends their readers; each closes its own descriptor. A silent listener has no thread.
        open.withLock { descriptors in
            if descriptors.listening { shutdown(fd, Int32(SHUT_RDWR)) }
            for connection in descriptors.connections { shutdown(connection, Int32(SHUT_RDWR)) }
        }
        if !answers { close(fd) }
    }
}
