/// An input value written in a document: an argument, a default value or a list/object member.
public enum Value: Sendable, Hashable {
    /// `$name` (not allowed in constant positions such as default values and SDL).
    case variable(Variable)
    /// An integer literal, kept as written.
    case int(IntValue)
    /// A float literal, kept as written.
    case float(FloatValue)
    /// A quoted or block string.
    case string(StringValue)
    /// `true` or `false`.
    case boolean(BooleanValue)
    /// `null`.
    case null(NullValue)
    /// An enum value: any name other than `true`, `false` and `null`.
    case `enum`(EnumValue)
    /// `[ ... ]`.
    case list(ListValue)
    /// `{ name: value ... }`.
    case object(ObjectValue)

    /// The byte range of the value.
    public var range: SourceRange {
        switch self {
        case .variable(let node): node.range
        case .int(let node): node.range
        case .float(let node): node.range
        case .string(let node): node.range
        case .boolean(let node): node.range
        case .null(let node): node.range
        case .enum(let node): node.range
        case .list(let node): node.range
        case .object(let node): node.range
        }
    }
}

/// An integer literal such as `-12`, kept as its source text.
public struct IntValue: Sendable, Hashable {
    /// The byte range of the literal.
    public var range: SourceRange
    /// The literal exactly as written (an optional `-`, then digits without leading zeros).
    public var value: String
}

extension IntValue {
    /// Creates an integer literal.
    /// - Parameters:
    ///   - value: The text, for example `"-12"`.
    ///   - range: Where it was written.
    public init(_ value: String, range: SourceRange = .none) {
        self.init(range: range, value: value)
    }
}

/// A float literal such as `1.5e-3`, kept as its source text.
public struct FloatValue: Sendable, Hashable {
    /// The byte range of the literal.
    public var range: SourceRange
    /// The literal exactly as written.
    public var value: String
}

extension FloatValue {
    /// Creates a float literal.
    /// - Parameters:
    ///   - value: The text, for example `"1.5e-3"`.
    ///   - range: Where it was written.
    public init(_ value: String, range: SourceRange = .none) {
        self.init(range: range, value: value)
    }
}

/// A string literal, quoted (`"..."`) or block (`"""..."""`).
public struct StringValue: Sendable, Hashable {
    /// The byte range including the quotes.
    public var range: SourceRange
    /// The string's value: escapes decoded, and for block strings the spec's `BlockStringValue()`
    /// applied (common indentation and leading/trailing blank lines removed).
    public var value: String
    /// Whether it was written as a block string.
    public var block: Bool
}

extension StringValue {
    /// Creates a string literal.
    /// - Parameters:
    ///   - value: The decoded value.
    ///   - block: Whether it is a block string.
    ///   - range: Where it was written.
    public init(_ value: String, block: Bool = false, range: SourceRange = .none) {
        self.init(range: range, value: value, block: block)
    }
}

/// `true` or `false`.
public struct BooleanValue: Sendable, Hashable {
    /// The byte range of the literal.
    public var range: SourceRange
    /// The value.
    public var value: Bool
}

extension BooleanValue {
    /// Creates a boolean literal.
    /// - Parameters:
    ///   - value: The value.
    ///   - range: Where it was written.
    public init(_ value: Bool, range: SourceRange = .none) {
        self.init(range: range, value: value)
    }
}

/// `null`.
public struct NullValue: Sendable, Hashable {
    /// The byte range of the literal.
    public var range: SourceRange

    /// Creates a null literal.
    /// - Parameter range: Where it was written.
    public init(range: SourceRange = .none) {
        self.range = range
    }
}

/// An enum value such as `ASC`.
public struct EnumValue: Sendable, Hashable {
    /// The byte range of the name.
    public var range: SourceRange
    /// The enum value's name.
    public var value: String
}

extension EnumValue {
    /// Creates an enum value.
    /// - Parameters:
    ///   - value: The name.
    ///   - range: Where it was written.
    public init(_ value: String, range: SourceRange = .none) {
        self.init(range: range, value: value)
    }
}

/// A list value: `[a, b, c]`.
public struct ListValue: Sendable, Hashable {
    /// The byte range from `[` to `]`.
    public var range: SourceRange
    /// The members in order.
    public var values: [Value]
}

extension ListValue {
    /// Creates a list value.
    /// - Parameters:
    ///   - values: The members.
    ///   - range: Where it was written.
    public init(_ values: [Value], range: SourceRange = .none) {
        self.init(range: range, values: values)
    }
}

/// An input object value: `{a: 1, b: 2}`.
public struct ObjectValue: Sendable, Hashable {
    /// The byte range from `{` to `}`.
    public var range: SourceRange
    /// The fields in the order written.
    public var fields: [ObjectField]
}

extension ObjectValue {
    /// Creates an object value.
    /// - Parameters:
    ///   - fields: The fields.
    ///   - range: Where it was written.
    public init(_ fields: [ObjectField], range: SourceRange = .none) {
        self.init(range: range, fields: fields)
    }
}

/// One `name: value` entry of an input object value.
public struct ObjectField: Sendable, Hashable {
    /// The byte range of the entry.
    public var range: SourceRange
    /// The field's name.
    public var name: Name
    /// Its value.
    public var value: Value
}

extension ObjectField {
    /// Creates an object field.
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    ///   - range: Where it was written.
    public init(name: Name, value: Value, range: SourceRange = .none) {
        self.init(range: range, name: name, value: value)
    }
}
