/// Why a Redis command did not get its reply.
public struct RedisError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: Sendable, Hashable {
        /// The server could not be reached, or the connection broke.
        case connection
        /// The server did not answer in time.
        case timeout
        /// The server sent bytes that are not RESP2, or a reply beyond the client's limits.
        case protocolViolation
        /// `AUTH` or `SELECT` was refused.
        case authentication
        /// The client was closed.
        case closed
    }

    /// What kind of failure.
    public let kind: Kind
    /// What happened, with the server's address.
    public let message: String

    /// Creates an error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// Whether the server is unreachable or too slow (as opposed to refusing one command).
    public var isUnavailability: Bool { kind == .connection || kind == .timeout || kind == .protocolViolation }

    /// The message.
    public var description: String { message }
}
