/// A reference to a type in a variable definition, field or argument: `Name`, `[T]` or `T!`.
public enum TypeReference: Sendable, Hashable {
    /// A named type.
    case named(NamedType)
    /// `[T]`.
    indirect case list(ListType)
    /// `T!`; the wrapped type is never itself non-null when parsed.
    indirect case nonNull(NonNullType)

    /// The byte range of the reference.
    public var range: SourceRange {
        switch self {
        case .named(let node): node.range
        case .list(let node): node.range
        case .nonNull(let node): node.range
        }
    }

    /// The named type at the core of the wrappers, for example `ID` for `[ID!]!`.
    public var namedType: NamedType {
        var current = self
        while true {
            switch current {
            case .named(let node): return node
            case .list(let node): current = node.type
            case .nonNull(let node): current = node.type
            }
        }
    }
}

/// A named type reference, also used for type conditions, interfaces and union members.
public struct NamedType: Sendable, Hashable {
    /// The byte range of the name.
    public var range: SourceRange
    /// The type's name.
    public var name: Name
}

extension NamedType {
    /// Creates a named type reference.
    /// - Parameters:
    ///   - name: The type's name.
    ///   - range: Where it was written.
    public init(name: Name, range: SourceRange = .none) {
        self.init(range: range, name: name)
    }
}

/// A list type: `[T]`.
public struct ListType: Sendable, Hashable {
    /// The byte range from `[` to `]`.
    public var range: SourceRange
    /// The element type.
    public var type: TypeReference
}

extension ListType {
    /// Creates a list type.
    /// - Parameters:
    ///   - type: The element type.
    ///   - range: Where it was written.
    public init(type: TypeReference, range: SourceRange = .none) {
        self.init(range: range, type: type)
    }
}

/// A non-null type: `T!`.
public struct NonNullType: Sendable, Hashable {
    /// The byte range including the `!`.
    public var range: SourceRange
    /// The wrapped type: a named or list type.
    public var type: TypeReference
}

extension NonNullType {
    /// Creates a non-null type.
    /// - Parameters:
    ///   - type: The wrapped named or list type.
    ///   - range: Where it was written.
    public init(type: TypeReference, range: SourceRange = .none) {
        self.init(range: range, type: type)
    }
}
