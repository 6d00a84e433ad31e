/// A JSON value that keeps what GraphQL and caching need: member order, and the difference between
/// `1`, `1.0` and `"1"`.
///
/// Used for GraphQL variables, response envelopes, introspection results and canonical cache keys.
/// Parsing needs no Foundation: see `JSONValue(parsing:)`.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The member named `key` of an object (the last one, when a key repeats), else `nil`.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` of an array, else `nil`.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let items) = self, items.indices.contains(index) { return items[index] }
        return nil
    }

    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    public var objectValue: JSONObject? { if case .object(let value) = self { value } else { nil } }
    public var isNull: Bool { if case .null = self { true } else { false } }
    /// The value as an integer, when it is a number without fraction that fits.
    public var intValue: Int? { if case .number(let number) = self { number.intValue } else { nil } }
    /// The value as a double, when it is a number.
    public var doubleValue: Double? { if case .number(let number) = self { number.doubleValue } else { nil } }

    /// A short name of the value's kind, for error messages: `null`, `a boolean`, `an object`.
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number(let number): number.isInteger ? "an integer" : "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }
}

/// A JSON object: members in the order written; look-ups find the last member of a name.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One member.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members, in order.
    public var members: [Member]

    public init(_ members: [Member] = []) { self.members = members }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        members = elements.map { Member(key: $0.0, value: $0.1) }
    }

    /// The value of the last member named `key`; setting replaces it in place or appends.
    public subscript(key: String) -> JSONValue? {
        get { members.last { $0.key == key }?.value }
        set {
            if let index = members.lastIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.removeAll { $0.key == key } }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }

    /// The member names, in order, without repeats.
    public var keys: [String] {
        var seen = Set<String>()
        return members.compactMap { seen.insert($0.key).inserted ? $0.key : nil }
    }

    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }
    public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }
}

/// A JSON number, kept as its canonical text so that integers and fractions never collide.
///
/// Canonical text: integers as plain decimal digits with an optional `-` (`-0` becomes `0`);
/// anything with a fraction or exponent as a decimal with at least one fraction digit (`1.0`,
/// `100.0`, `1.5e-7` for very small or large magnitudes), so `1e2` and `100.0` are one number
/// and `1` is another.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The canonical text.
    public let text: String
    /// Whether the number was written without fraction or exponent.
    public let isInteger: Bool

    /// An integer.
    public init(_ value: Int) {
        text = String(value)
        isInteger = true
    }

    /// A floating-point number; `nil` for NaN and infinities, which JSON cannot carry.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        text = JSONNumber.canonicalFloatText(value)
        isInteger = false
    }

    /// A number from JSON source text (already checked against the JSON grammar).
    init(source: String, isInteger: Bool) {
        if isInteger {
            let trimmed = source == "-0" ? "0" : source
            self.text = trimmed
            self.isInteger = true
        } else {
            self.text = JSONNumber.canonicalFloatText(Double(source) ?? 0)
            self.isInteger = false
        }
    }

    public var intValue: Int? {
        if isInteger { return Int(text) }
        guard let double = Double(text), double.rounded() == double, abs(double) < 9.0e15 else { return nil }
        return Int(double)
    }

    public var doubleValue: Double { Double(text) ?? 0 }

    public var description: String { text }

    static func canonicalFloatText(_ value: Double) -> String {
        if value == 0 { return "0.0" }
        let described = "\(value)"  // Swift prints the shortest text that round-trips.
        if described.contains("e") {
            let parts = described.split(separator: "e", maxSplits: 1)
            var mantissa = String(parts[0])
            if !mantissa.contains(".") { mantissa += ".0" }
            let exponent = parts.count > 1 ? String(parts[1]).replacingPlus() : "0"
            return "\(mantissa)e\(exponent)"
        }
        return described.contains(".") ? described : described + ".0"
    }
}

extension String {
    fileprivate func replacingPlus() -> String { hasPrefix("+") ? String(dropFirst()) : self }
}
