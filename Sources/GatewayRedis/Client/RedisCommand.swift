import Foundation

/// One Redis command: its name and arguments, each a binary-safe string.
///
/// ```swift
/// var command = RedisCommand("SET", "greeting", "hello")
/// command.append(["PX", "1000"])
/// ```
public struct RedisCommand: Sendable, Hashable {
    /// The name and the arguments, in order.
    public private(set) var arguments: [[UInt8]]

    /// A command of text words.
    public init(_ name: String, _ arguments: String...) {
        self.arguments = [Array(name.utf8)] + arguments.map { Array($0.utf8) }
    }

    /// A command of text words.
    public init(words: [String]) {
        self.arguments = words.map { Array($0.utf8) }
    }

    /// Appends text arguments.
    public mutating func append(_ words: [String]) {
        for word in words { arguments.append(Array(word.utf8)) }
    }

    /// Appends one text argument.
    public mutating func append(_ word: String) { arguments.append(Array(word.utf8)) }

    /// Appends one binary argument.
    public mutating func append(bytes: [UInt8]) { arguments.append(bytes) }

    /// Appends one binary argument.
    public mutating func append(data: Data) { arguments.append([UInt8](data)) }

    /// The command as RESP: an array of bulk strings.
    func encode(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "*"))
        output.append(contentsOf: String(arguments.count).utf8)
        output.append(contentsOf: [0x0D, 0x0A])
        for argument in arguments {
            output.append(UInt8(ascii: "$"))
            output.append(contentsOf: String(argument.count).utf8)
            output.append(contentsOf: [0x0D, 0x0A])
            output.append(contentsOf: argument)
            output.append(contentsOf: [0x0D, 0x0A])
        }
    }
}
