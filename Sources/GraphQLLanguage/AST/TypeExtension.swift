/// An extension of a named type of any kind (`extend type ...`, `extend enum ...`, and so on).
public enum TypeExtension: Sendable, Hashable {
    /// `extend scalar Name @directives`.
    case scalar(ScalarTypeExtension)
    /// `extend type Name implements I @directives { fields }`.
    case object(ObjectTypeExtension)
    /// `extend interface Name implements I @directives { fields }`.
    case interface(InterfaceTypeExtension)
    /// `extend union Name @directives = A | B`.
    case union(UnionTypeExtension)
    /// `extend enum Name @directives { VALUES }`.
    case `enum`(EnumTypeExtension)
    /// `extend input Name @directives { fields }`.
    case inputObject(InputObjectTypeExtension)

    /// The name of the extended type.
    public var name: Name {
        switch self {
        case .scalar(let node): node.name
        case .object(let node): node.name
        case .interface(let node): node.name
        case .union(let node): node.name
        case .enum(let node): node.name
        case .inputObject(let node): node.name
        }
    }

    /// The directives the extension adds.
    public var directives: [Directive] {
        switch self {
        case .scalar(let node): node.directives
        case .object(let node): node.directives
        case .interface(let node): node.directives
        case .union(let node): node.directives
        case .enum(let node): node.directives
        case .inputObject(let node): node.directives
        }
    }

    /// The byte range from `extend` to the end.
    public var range: SourceRange {
        switch self {
        case .scalar(let node): node.range
        case .object(let node): node.range
        case .interface(let node): node.range
        case .union(let node): node.range
        case .enum(let node): node.range
        case .inputObject(let node): node.range
        }
    }
}

/// `extend scalar Name @directives`.
public struct ScalarTypeExtension: Sendable, Hashable {
    /// The byte range from `extend` to the end.
    public var range: SourceRange
    /// The extended type's name.
    public var name: Name
    /// The directives added.
    public var directives: [Directive]
}

extension ScalarTypeExtension {
    /// Creates a scalar extension.
    /// - Parameters:
    ///   - name: The extended type's name.
    ///   - directives: The directives added.
    ///   - range: Where it was written.
    public init(name: Name, directives: [Directive] = [], range: SourceRange = .none) {
        self.init(range: range, name: name, directives: directives)
    }
}

/// `extend type Name implements A & B @directives { fields }`.
public struct ObjectTypeExtension: Sendable, Hashable {
    /// The byte range from `extend` to the end.
    public var range: SourceRange
    /// The extended type's name.
    public var name: Name
    /// The interfaces added.
    public var interfaces: [NamedType]
    /// The directives added.
    public var directives: [Directive]
    /// The fields added.
    public var fields: [FieldDefinition]
}

extension ObjectTypeExtension {
    /// Creates an object type extension.
    /// - Parameters:
    ///   - name: The extended type's name.
    ///   - interfaces: The interfaces added.
    ///   - directives: The directives added.
    ///   - fields: The fields added.
    ///   - range: Where it was written.
    public init(
        name: Name, interfaces: [NamedType] = [], directives: [Directive] = [], fields: [FieldDefinition] = [],
        range: SourceRange = .none
    ) {
        self.init(range: range, name: name, interfaces: interfaces, directives: directives, fields: fields)
    }
}

/// `extend interface Name implements A & B @directives { fields }`.
public struct InterfaceTypeExtension: Sendable, Hashable {
    /// The byte range from `extend` to the end.
    public var range: SourceRange
    /// The extended type's name.
    public var name: Name
    /// The interfaces added.
    public var interfaces: [NamedType]
    /// The directives added.
    public var directives: [Directive]
    /// The fields added.
    public var fields: [FieldDefinition]
}

extension InterfaceTypeExtension {
    /// Creates an interface type extension.
    /// - Parameters:
    ///   - name: The extended type's name.
    ///   - interfaces: The interfaces added.
    ///   - directives: The directives added.
    ///   - fields: The fields added.
    ///   - range: Where it was written.
    public init(
        name: Name, interfaces: [NamedType] = [], directives: [Directive] = [], fields: [FieldDefinition] = [],
        range: SourceRange = .none
    ) {
        self.init(range: range, name: name, interfaces: interfaces, directives: directives, fields: fields)
    }
}

/// `extend union Name @directives = A | B`.
public struct UnionTypeExtension: Sendable, Hashable {
    /// The byte range from `extend` to the end.
    public var range: SourceRange
    /// The extended type's name.
    public var name: Name
    /// The directives added.
    public var directives: [Directive]
    /// The member types added.
    public var types: [NamedType]
}

extension UnionTypeExtension {
    /// Creates a union extension.
    /// - Parameters:
    ///   - name: The extended type's name.
    ///   - directives: The directives added.
    ///   - types: The member types added.
    ///   - range: Where it was written.
    public init(name: Name, directives: [Directive] = [], types: [NamedType] = [], range: SourceRange = .none) {
        self.init(range: range, name: name, directives: directives, types: types)
    }
}

/// `extend enum Name @directives { VALUES }`.
public struct EnumTypeExtension: Sendable, Hashable {
    /// The byte range from `extend` to the end.
    public var range: SourceRange
    /// The extended type's name.
    public var name: Name
    /// The directives added.
    public var directives: [Directive]
    /// The values added.
    public var values: [EnumValueDefinition]
}

extension EnumTypeExtension {
    /// Creates an enum extension.
    /// - Parameters:
    ///   - name: The extended type's name.
    ///   - directives: The directives added.
    ///   - values: The values added.
    ///   - range: Where it was written.
    public init(
        name: Name, directives: [Directive] = [], values: [EnumValueDefinition] = [], range: SourceRange = .none
    ) {
        self.init(range: range, name: name, directives: directives, values: values)
    }
}

/// `extend input Name @directives { fields }`.
public struct InputObjectTypeExtension: Sendable, Hashable {
    /// The byte range from `extend` to the end.
    public var range: SourceRange
    /// The extended type's name.
    public var name: Name
    /// The directives added.
    public var directives: [Directive]
    /// The input fields added.
    public var fields: [InputValueDefinition]
}

extension InputObjectTypeExtension {
    /// Creates an input object extension.
    /// - Parameters:
    ///   - name: The extended type's name.
    ///   - directives: The directives added.
    ///   - fields: The input fields added.
    ///   - range: Where it was written.
    public init(
        name: Name, directives: [Directive] = [], fields: [InputValueDefinition] = [], range: SourceRange = .none
    ) {
        self.init(range: range, name: name, directives: directives, fields: fields)
    }
}
