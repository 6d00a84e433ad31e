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
    /// The description, if any.
    public var description: StringValue?
    /// The name.
    public var name: Name
    /// The directives.
    public var directives: [Directive]
    /// The byte range, including the description.
    public var range: SourceRange

    /// Creates a scalar type definition.
    /// - Parameters:
    ///   - description: The description, if any.
    ///   - name: The name.
    ///   - directives: The directives.
    ///   - range: Where it was written.
    public init(description: StringValue? = nil, name: Name, directives: [Directive] = [], range: SourceRange = .none) {
        self.description = description
        self.name = name
        self.directives = directives
        self.range = range
    }
}

/// `description type Name implements A & B @directives { fields }`.
public struct ObjectTypeDefinition: Sendable, Hashable {
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
    /// The byte range, including the description.
    public var range: SourceRange

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
        self.description = description
        self.name = name
        self.interfaces = interfaces
        self.directives = directives
        self.fields = fields
        self.range = range
    }
}

/// `description interface Name implements A & B @directives { fields }`.
public struct InterfaceTypeDefinition: Sendable, Hashable {
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
    /// The byte range, including the description.
    public var range: SourceRange

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
        self.description = description
        self.name = name
        self.interfaces = interfaces
        self.directives = directives
        self.fields = fields
        self.range = range
    }
}

/// `description union Name @directives = A | B`.
public struct UnionTypeDefinition: Sendable, Hashable {
    /// The description, if any.
    public var description: StringValue?
    /// The name.
    public var name: Name
    /// The directives.
    public var directives: [Directive]
    /// The member types.
    public var types: [NamedType]
    /// The byte range, including the description.
    public var range: SourceRange

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
        self.description = description
        self.name = name
        self.directives = directives
        self.types = types
        self.range = range
    }
}

/// `description enum Name @directives { VALUES }`.
public struct EnumTypeDefinition: Sendable, Hashable {
    /// The description, if any.
    public var description: StringValue?
    /// The name.
    public var name: Name
    /// The directives.
    public var directives: [Directive]
    /// The values.
    public var values: [EnumValueDefinition]
    /// The byte range, including the description.
    public var range: SourceRange

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
        self.description = description
        self.name = name
        self.directives = directives
        self.values = values
        self.range = range
    }
}

/// `description input Name @directives { fields }`.
public struct InputObjectTypeDefinition: Sendable, Hashable {
    /// The description, if any.
    public var description: StringValue?
    /// The name.
    public var name: Name
    /// The directives.
    public var directives: [Directive]
    /// The input fields.
    public var fields: [InputValueDefinition]
    /// The byte range, including the description.
    public var range: SourceRange

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
        self.description = description
        self.name = name
        self.directives = directives
        self.fields = fields
        self.range = range
    }
}
