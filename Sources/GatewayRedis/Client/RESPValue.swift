/// One reply of a Redis server in RESP2, the protocol's second version.
///
/// Error replies are values, not thrown errors: in a pipeline each command gets its own reply,
/// and one failed command does not fail the others.
public enum RESPValue: Sendable, Hashable {
    /// A simple string (`+OK`).
    case simpleString(String)
    /// An error reply (`-ERR unknown command`): the server refused this command.
    case error(String)
    /// An integer (`:42`).
    case integer(Int64)
    /// A bulk string: bytes, binary-safe.
    case bulkString([UInt8])
    /// An array of replies.
    case array([RESPValue])
    /// The null bulk string or null array (`$-1`, `*-1`): no value.
    case null

    /// The bytes of a bulk or simple string; `nil` for anything else.
    public var bytes: [UInt8]? {
        switch self {
        case .bulkString(let bytes): bytes
        case .simpleString(let text): Array(text.utf8)
        default: nil
        }
    }

    /// A bulk or simple string as UTF-8 text (invalid bytes repaired); `nil` for anything else.
    public var text: String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    /// An integer reply, or a string reply holding a decimal integer.
    public var integerValue: Int64? {
        switch self {
        case .integer(let value): value
        case .bulkString, .simpleString: text.flatMap { Int64($0) }
        default: nil
        }
    }

    /// The elements of an array reply; `nil` for anything else.
    public var arrayValue: [RESPValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    /// The message of an error reply; `nil` for anything else.
    public var errorMessage: String? {
        if case .error(let message) = self { return message }
        return nil
    }
}
