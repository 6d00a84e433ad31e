/// A `schema { query: Query ... }` definition.
public struct SchemaDefinition: Sendable, Hashable {
    /// The byte range of the definition, including the description.
    public var range: SourceRange
    /// The description before `schema`, if any.
    public var description: StringValue?
    /// The directives.
    public var directives: [Directive]
    /// The root operation types.
    public var operationTypes: [OperationTypeDefinition]
}

extension SchemaDefinition {
    /// Creates a schema definition.
    /// - Parameters:
    ///   - description: The description, if any.
    ///   - directives: The directives.
    ///   - operationTypes: The root operation types.
    ///   - range: Where it was written.
    public init(
        description: StringValue? = nil, directives: [Directive] = [],
        operationTypes: [OperationTypeDefinition], range: SourceRange = .none
    ) {
        self.init(range: range, description: description, directives: directives, operationTypes: operationTypes)
    }
}

/// An `extend schema @directives { ... }` extension.
public struct SchemaExtension: Sendable, Hashable {
    /// The byte range from `extend` to the end.
    public var range: SourceRange
    /// The directives added.
    public var directives: [Directive]
    /// The root operation types added.
    public var operationTypes: [OperationTypeDefinition]
}

extension SchemaExtension {
    /// Creates a schema extension.
    /// - Parameters:
    ///   - directives: The directives added.
    ///   - operationTypes: The root operation types added.
    ///   - range: Where it was written.
    public init(
        directives: [Directive] = [], operationTypes: [OperationTypeDefinition] = [], range: SourceRange = .none
    ) {
        self.init(range: range, directives: directives, operationTypes: operationTypes)
    }
}

/// One root operation type of a schema: `query: Query`.
public struct OperationTypeDefinition: Sendable, Hashable {
    /// The byte range of the entry.
    public var range: SourceRange
    /// The operation kind.
    public var operation: OperationType
    /// The root type.
    public var type: NamedType
}

extension OperationTypeDefinition {
    /// Creates a root operation type entry.
    /// - Parameters:
    ///   - operation: The operation kind.
    ///   - type: The root type.
    ///   - range: Where it was written.
    public init(operation: OperationType, type: NamedType, range: SourceRange = .none) {
        self.init(range: range, operation: operation, type: type)
    }
}

/// A field of an object or interface type: `description name(arguments): Type @directives`.
public struct FieldDefinition: Sendable, Hashable {
    /// The byte range, including the description.
    public var range: SourceRange
    /// The description, if any.
    public var description: StringValue?
    /// The field's name.
    public var name: Name
    /// The arguments.
    public var arguments: [InputValueDefinition]
    /// The field's type.
    public var type: TypeReference
    /// The directives.
    public var directives: [Directive]
}

extension FieldDefinition {
    /// Creates a field definition.
    /// - Parameters:
    ///   - description: The description, if any.
    ///   - name: The name.
    ///   - arguments: The arguments.
    ///   - type: The type.
    ///   - directives: The directives.
    ///   - range: Where it was written.
    public init(
        description: StringValue? = nil, name: Name, arguments: [InputValueDefinition] = [],
        type: TypeReference, directives: [Directive] = [], range: SourceRange = .none
    ) {
        self.init(
            range: range, description: description, name: name, arguments: arguments, type: type, directives: directives
        )
    }
}

/// An argument or input object field definition: `description name: Type = default @directives`.
public struct InputValueDefinition: Sendable, Hashable {
    /// The byte range, including the description.
    public var range: SourceRange
    /// The description, if any.
    public var description: StringValue?
    /// The name.
    public var name: Name
    /// The type.
    public var type: TypeReference
    /// The default value (a constant), if any.
    public var defaultValue: Value?
    /// The directives.
    public var directives: [Directive]
}

extension InputValueDefinition {
    /// Creates an input value definition.
    /// - Parameters:
    ///   - description: The description, if any.
    ///   - name: The name.
    ///   - type: The type.
    ///   - defaultValue: The default value, if any.
    ///   - directives: The directives.
    ///   - range: Where it was written.
    public init(
        description: StringValue? = nil, name: Name, type: TypeReference, defaultValue: Value? = nil,
        directives: [Directive] = [], range: SourceRange = .none
    ) {
        self.init(
            range: range, description: description, name: name, type: type, defaultValue: defaultValue,
            directives: directives
        )
    }
}

/// One value of an enum type: `description NAME @directives`.
public struct EnumValueDefinition: Sendable, Hashable {
    /// The byte range, including the description.
    public var range: SourceRange
    /// The description, if any.
    public var description: StringValue?
    /// The value's name (never `true`, `false` or `null`).
    public var name: Name
    /// The directives.
    public var directives: [Directive]
}

extension EnumValueDefinition {
    /// Creates an enum value definition.
    /// - Parameters:
    ///   - description: The description, if any.
    ///   - name: The name.
    ///   - directives: The directives.
    ///   - range: Where it was written.
    public init(
        description: StringValue? = nil, name: Name, directives: [Directive] = [], range: SourceRange = .none
    ) {
        self.init(range: range, description: description, name: name, directives: directives)
    }
}
