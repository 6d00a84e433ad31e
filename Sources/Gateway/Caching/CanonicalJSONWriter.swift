import GraphQLLanguage

/// Writes a `JSONValue` as `serialized(.canonical)` does, byte for byte, into a reusable buffer.
///
/// Cache keys serialize the variables of every request, so this path avoids the general
/// serializer's per-object set and sorted copies: an object whose names are already unique and
/// in order (the usual case) is written as it is. Tests hold the two serializers to the same output.
enum CanonicalJSONWriter {
    /// Deeper values are handed to the general serializer.
    static let maximumDepth = 256

    /// The canonical text of `value` as UTF-8 bytes.
    static func bytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(value, into: &out, depth: 0)
        return out
    }

    static func write(_ value: JSONValue, into out: inout [UInt8], depth: Int) {
        guard depth < maximumDepth else {
            out.append(contentsOf: value.serialized(.canonical).utf8)
            return
        }
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .number(let number): out.append(contentsOf: number.text.utf8)
        case .string(let text): writeString(text, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (position, item) in items.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                write(item, into: &out, depth: depth + 1)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            let members = object.members
            out.append(UInt8(ascii: "{"))
            if isCanonicalOrder(members) {
                for (position, member) in members.enumerated() {
                    writeMember(member, first: position == 0, into: &out, depth: depth)
                }
            } else {
                for (position, index) in canonicalOrder(members).enumerated() {
                    writeMember(members[index], first: position == 0, into: &out, depth: depth)
                }
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeMember(_ member: JSONObject.Member, first: Bool, into out: inout [UInt8], depth: Int) {
        if !first { out.append(UInt8(ascii: ",")) }
        writeString(member.key, into: &out)
        out.append(UInt8(ascii: ":"))
        write(member.value, into: &out, depth: depth + 1)
    }

    /// Whether the names strictly increase by UTF-8 bytes (so each appears once, in order).
    private static func isCanonicalOrder(_ members: [JSONObject.Member]) -> Bool {
        var index = 1
        while index < members.count {
            guard members[index - 1].key.utf8.lexicographicallyPrecedes(members[index].key.utf8) else { return false }
            index += 1
        }
        return true
    }

    /// The indexes of the last member of each name, ordered by the name's UTF-8 bytes.
    private static func canonicalOrder(_ members: [JSONObject.Member]) -> [Int] {
        let sorted = members.indices.sorted { left, right in
            let leftKey = members[left].key, rightKey = members[right].key
            if leftKey == rightKey { return left < right }
            return leftKey.utf8.lexicographicallyPrecedes(rightKey.utf8)
        }
        var kept: [Int] = []
        kept.reserveCapacity(sorted.count)
        for index in sorted {
            if let last = kept.last, members[last].key == members[index].key {
                kept[kept.count - 1] = index
            } else {
                kept.append(index)
            }
        }
        return kept
    }

    /// Quotes and backslashes escaped, control characters as short escapes or `\u00XX`.
    private static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "\\"))
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0x08: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "f"))
            case 0x00..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0x0F))
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
