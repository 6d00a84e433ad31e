/// A named type definition of any kind.
public enum TypeDefinition: Sendable, Hashable {
    /// `scalar Name`.
    case scalar(ScalarTypeDefinition)
    /// `type Name implements I { ... }`.
    case object(ObjectTypeDefinition)
    /// `interface Name implements I { ... }`.
    case interface(InterfaceTypeDefinition)
    /// `union Name = A | B`.
    case union(UnionTypeDefinition)
    /// `enum Name { A B }`.
    case `enum`(EnumTypeDefinition)
    /// `input Name { ... }`.
    case inputObject(InputObjectTypeDefinition)

    /// The type's name.
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

    /// The type's description, if any.
    public var description: StringValue? {
        switch self {
        case .scalar(let node): node.description
        case .object(let node): node.description
        case .interface(let node): node.description
        case .union(let node): node.description
        case .enum(let node): node.description
        case .inputObject(let node): node.description
        }
    }

    /// The directives on the type.
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

    /// The byte range of the definition.
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

/// `description scalar Name @directives`.
public struct ScalarTypeDefinition: Sendable, Hashable {
    /// The byte range, including the description.
    public var range: SourceRange
    /// The description, if any.
    public var description: StringValue?
    /// The name.
    public var name: Name
    /// The directives.
    public var directives: [Directive]
}

extension ScalarTypeDefinition {
    /// Creates a scalar type definition.
    /// - Parameters:
    ///   - description: The description, if any.
    ///   - name: The name.
    ///   - directives: The directives.
    ///   - range: Where it was written.
    public init(description: StringValue? = nil, name: Name, directives: [Directive] = [], range: SourceRange = .none) {
        self.init(range: range, description: description, name: name, directives: directives)
    }
}

/// `description type Name implements A & B @directives { fields }`.
public struct ObjectTypeDefinition: Sendable, Hashable {
    /// The byte range, including the description.
    public var range: SourceRange
    /// The description, if any.
    public var description: StringValue?
    /// The name.
    public var name: Name
    /// The interfaces it implements.
    public var interfaces: [NamedType]
    /// The directives.
    public var directives: [Directive]
    /// The fields.
    public var fields: [FieldDefinition]
}

extension ObjectTypeDefinition {
    /// Creates an object type definition.
    /// - Parameters:
    ///   - description: The description, if any.
    ///   - name: The name.
    ///   - interfaces: The implemented interfaces.
    ///   - directives: The directives.
    ///   - fields: The fields.
    ///   - range: Where it was written.
    public init(
        description: StringValue? = nil, name: Name, interfaces: [NamedType] = [], directives: [Directive] = [],
        fields: [FieldDefinition] = [], range: SourceRange = .none
    ) {
        self.init(
            range: range, description: description, name: name, interfaces: interfaces, directives: directives,
            fields: fields
        )
    }
}

/// `description interface Name implements A & B @directives { fields }`.
public struct InterfaceTypeDefinition: Sendable, Hashable {
    /// The byte range, including the description.
    public var range: SourceRange
    /// The description, if any.
    public var description: StringValue?
    /// The name.
    public var name: Name
    /// The interfaces it implements.
    public var interfaces: [NamedType]
    /// The directives.
    public var directives: [Directive]
    /// The fields.
    public var fields: [FieldDefinition]
}

extension InterfaceTypeDefinition {
    /// Creates an interface type definition.
    /// - Parameters:
    ///   - description: The description, if any.
    ///   - name: The name.
    ///   - interfaces: The implemented interfaces.
    ///   - directives: The directives.
    ///   - fields: The fields.
    ///   - range: Where it was written.
    public init(
        description: StringValue? = nil, name: Name, interfaces: [NamedType] = [], directives: [Directive] = [],
        fields: [FieldDefinition] = [], range: SourceRange = .none
    ) {
        self.init(
            range: range, description: description, name: name, interfaces: interfaces, directives: directives,
            fields: fields
        )
    }
}

/// `description union Name @directives = A | B`.
public struct UnionTypeDefinition: Sendable, Hashable {
    /// The byte range, including the description.
    public var range: SourceRange
    /// The description, if any.
    public var description: StringValue?
    /// The name.
    public var name: Name
    /// The directives.
    public var directives: [Directive]
    /// The member types.
    public var types: [NamedType]
}

extension UnionTypeDefinition {
    /// Creates a union type definition.
    /// - Parameters:
    ///   - description: The description, if any.
    ///   - name: The name.
    ///   - directives: The directives.
    ///   - types: The member types.
    ///   - range: Where it was written.
    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [], types: [NamedType] = [],
        range: SourceRange = .none
    ) {
        self.init(range: range, description: description, name: name, directives: directives, types: types)
    }
}

/// `description enum Name @directives { VALUES }`.
public struct EnumTypeDefinition: Sendable, Hashable {
    /// The byte range, including the description.
    public var range: SourceRange
    /// The description, if any.
    public var description: StringValue?
    /// The name.
    public var name: Name
    /// The directives.
    public var directives: [Directive]
    /// The values.
    public var values: [EnumValueDefinition]
}

extension EnumTypeDefinition {
    /// Creates an enum type definition.
    /// - Parameters:
    ///   - description: The description, if any.
    ///   - name: The name.
    ///   - directives: The directives.
    ///   - values: The values.
    ///   - range: Where it was written.
    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [],
        values: [EnumValueDefinition] = [], range: SourceRange = .none
    ) {
        self.init(range: range, description: description, name: name, directives: directives, values: values)
    }
}

/// `description input Name @directives { fields }`.
public struct InputObjectTypeDefinition: Sendable, Hashable {
    /// The byte range, including the description.
    public var range: SourceRange
    /// The description, if any.
    public var description: StringValue?
    /// The name.
    public var name: Name
    /// The directives.
    public var directives: [Directive]
    /// The input fields.
    public var fields: [InputValueDefinition]
}

extension InputObjectTypeDefinition {
    /// Creates an input object type definition.
    /// - Parameters:
    ///   - description: The description, if any.
    ///   - name: The name.
    ///   - directives: The directives.
    ///   - fields: The input fields.
    ///   - range: Where it was written.
    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [],
        fields: [InputValueDefinition] = [], range: SourceRange = .none
    ) {
        self.init(range: range, description: description, name: name, directives: directives, fields: fields)
    }
}
