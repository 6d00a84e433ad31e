/// Reads RESP2 replies from bytes as they arrive.
///
/// `append` adds received bytes; `next()` returns the next complete reply, or `nil` until enough
/// bytes are there. An incomplete reply is read again from its start when more bytes come, so the
/// buffer holds at most one reply beyond what was consumed, and `RESPLimits.maximumReplyBytes`
/// bounds it: a reply that grows past the limit is a protocol violation, found before its bytes
/// are all received. Lengths are checked before anything is allocated for them.
package struct RESPParser {
    package let limits: RESPLimits
    private var buffer: [UInt8] = []
    private var start = 0

    package init(limits: RESPLimits = RESPLimits()) {
        self.limits = limits
    }

    /// Bytes received and not yet consumed by a complete reply.
    package var bufferedCount: Int { buffer.count - start }

    /// Adds received bytes.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 64 * 1024 && start > buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes.
    package mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The next complete reply, or `nil` when more bytes are needed.
    ///
    /// - Throws: `RESPProtocolError` when the bytes are not RESP2 or break a limit; the
    ///   connection cannot be used after that.
    package mutating func next() throws(RESPProtocolError) -> RESPValue? {
        var cursor = start
        guard let value = try parse(&cursor, depth: 0) else {
            if buffer.count - start > limits.maximumReplyBytes {
                throw RESPProtocolError("a reply is longer than \(limits.maximumReplyBytes) bytes")
            }
            return nil
        }
        start = cursor
        return value
    }

    private func parse(_ cursor: inout Int, depth: Int) throws(RESPProtocolError) -> RESPValue? {
        guard cursor < buffer.count else { return nil }
        let type = buffer[cursor]
        guard Self.types.contains(type) else {
            throw RESPProtocolError("unexpected type byte 0x\(String(type, radix: 16)) (not a RESP2 reply)")
        }
        guard let line = try line(after: cursor + 1) else { return nil }
        var next = line.upperBound + 2
        switch type {
        case UInt8(ascii: "+"):
            cursor = next
            return .simpleString(text(line))
        case UInt8(ascii: "-"):
            cursor = next
            return .error(text(line))
        case UInt8(ascii: ":"):
            cursor = next
            return .integer(try integer(line))
        case UInt8(ascii: "$"):
            let length = try integer(line)
            if length == -1 {
                cursor = next
                return .null
            }
            guard length >= 0 else { throw RESPProtocolError("a bulk string announces length \(length)") }
            guard length <= Int64(limits.maximumReplyBytes) else {
                throw RESPProtocolError("a bulk string announces \(length) bytes, more than the limit of "
                                        + "\(limits.maximumReplyBytes)")
            }
            let count = Int(length)
            guard buffer.count - next >= count + 2 else { return nil }
            guard buffer[next + count] == 0x0D, buffer[next + count + 1] == 0x0A else {
                throw RESPProtocolError("a bulk string of \(count) bytes is not followed by CRLF")
            }
            let bytes = Array(buffer[next..<(next + count)])
            cursor = next + count + 2
            return .bulkString(bytes)
        case UInt8(ascii: "*"):
            let count = try integer(line)
            if count == -1 {
                cursor = next
                return .null
            }
            guard count >= 0 else { throw RESPProtocolError("an array announces \(count) elements") }
            guard count <= Int64(limits.maximumArrayCount) else {
                throw RESPProtocolError("an array announces \(count) elements, more than the limit of "
                                        + "\(limits.maximumArrayCount)")
            }
            guard depth < limits.maximumDepth else {
                throw RESPProtocolError("arrays nest deeper than the limit of \(limits.maximumDepth)")
            }
            // Never trust the announced count for an allocation: elements are appended as they parse.
            var elements: [RESPValue] = []
            elements.reserveCapacity(min(Int(count), 64))
            for _ in 0..<Int(count) {
                guard let element = try parse(&next, depth: depth + 1) else { return nil }
                elements.append(element)
            }
            cursor = next
            return .array(elements)
        default:
            throw RESPProtocolError("unexpected type byte 0x\(String(type, radix: 16)) (not a RESP2 reply)")
        }
    }

    /// The type bytes of RESP2: simple string, error, integer, bulk string, array.
    private static let types: [UInt8] = Array("+-:$*".utf8)

    /// The range of the line starting at `from` (without its CRLF), or `nil` when its end has not
    /// arrived yet.
    private func line(after from: Int) throws(RESPProtocolError) -> Range<Int>? {
        var index = from
        let end = min(buffer.count, from + limits.maximumLineBytes + 2)
        while index < end {
            if buffer[index] == 0x0D {
                guard index + 1 < buffer.count else { return nil }
                guard buffer[index + 1] == 0x0A else { throw RESPProtocolError("a CR is not followed by LF") }
                return from..<index
            }
            index += 1
        }
        if end - from >= limits.maximumLineBytes + 2 {
            throw RESPProtocolError("a line is longer than \(limits.maximumLineBytes) bytes")
        }
        return nil
    }

    private func text(_ range: Range<Int>) -> String {
        String(decoding: buffer[range], as: UTF8.self)
    }

    private func integer(_ range: Range<Int>) throws(RESPProtocolError) -> Int64 {
        var digits = range
        var negative = false
        if let first = digits.first, buffer[first] == UInt8(ascii: "-") {
            negative = true
            digits = (first + 1)..<digits.upperBound
        }
        guard !digits.isEmpty, digits.count <= 19 else {
            throw RESPProtocolError("\"\(text(range))\" is not an integer")
        }
        var value: Int64 = 0
        for index in digits {
            let byte = buffer[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                throw RESPProtocolError("\"\(text(range))\" is not an integer")
            }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflow, !overflow2 else { throw RESPProtocolError("\"\(text(range))\" overflows 64 bits") }
            value = sum
        }
        return negative ? -value : value
    }
}

/// Bytes from a server that are not a RESP2 reply, or a reply beyond the client's limits.
package struct RESPProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    package let message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
