extension JSONValue {
    /// How `serialized` lays the text out.
    public enum Layout: Sendable {
        /// No whitespace, members in the order held.
        case compact
        /// No whitespace, members sorted by the UTF-8 bytes of their names: one text for one value,
        /// whatever order it was built in (the form cache keys hash).
        case canonical
        /// Two-space indentation, members in the order held, for people.
        case pretty
    }

    /// The value as JSON text.
    public func serialized(_ layout: Layout = .compact) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        write(into: &out, layout: layout, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }

    func write(into out: inout [UInt8], layout: Layout, indent: Int) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let number): out.append(contentsOf: number.text.utf8)
        case .string(let text): JSONValue.writeString(text, into: &out)
        case .array(let items):
            guard !items.isEmpty else { out.append(contentsOf: "[]".utf8); return }
            out.append(UInt8(ascii: "["))
            for (position, item) in items.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                if layout == .pretty { JSONValue.newline(into: &out, indent: indent + 1) }
                item.write(into: &out, layout: layout, indent: indent + 1)
            }
            if layout == .pretty { JSONValue.newline(into: &out, indent: indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.isEmpty else { out.append(contentsOf: "{}".utf8); return }
            var members = object.members
            if layout == .canonical {
                // Last member of a name wins, as look-ups do; then order by UTF-8 bytes.
                var seen = Set<String>()
                members = members.reversed().filter { seen.insert($0.key).inserted }
                members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            }
            out.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                if layout == .pretty { JSONValue.newline(into: &out, indent: indent + 1) }
                JSONValue.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                if layout == .pretty { out.append(UInt8(ascii: " ")) }
                member.value.write(into: &out, layout: layout, indent: indent + 1)
            }
            if layout == .pretty { JSONValue.newline(into: &out, indent: indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func newline(into out: inout [UInt8], indent: Int) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    /// Writes `text` as a JSON string: quotes, backslashes and control characters escaped.
    static func writeString(_ text: String, into out: inout [UInt8]) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x00..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact JSON text.
    public var description: String { serialized(.compact) }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(floatLiteral value: Double) { self = JSONNumber(value).map { .number($0) } ?? .null }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { JSONObject.Member(key: $0.0, value: $0.1) }))
    }
}

extension JSONValue: Codable {
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        if let object = try? decoder.container(keyedBy: MemberKey.self) {
            var members: [JSONObject.Member] = []
            for key in object.allKeys {
                members.append(JSONObject.Member(key: key.stringValue, value: try object.decode(JSONValue.self, forKey: key)))
            }
            self = .object(JSONObject(members))
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int.self) {
            self = .number(JSONNumber(value))
        } else if let value = try? single.decode(Double.self) {
            self = JSONNumber(value).map { .number($0) } ?? .null
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .number(let number):
            var single = encoder.singleValueContainer()
            if number.isInteger, let value = Int(number.text) { try single.encode(value) } else { try single.encode(number.doubleValue) }
        case .string(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .array(let items):
            var array = encoder.unkeyedContainer()
            for item in items { try array.encode(item) }
        case .object(let object):
            var container = encoder.container(keyedBy: MemberKey.self)
            for key in object.keys {
                if let value = object[key] { try container.encode(value, forKey: MemberKey(stringValue: key)) }
            }
        }
    }
}
