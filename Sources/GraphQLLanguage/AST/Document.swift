/// A parsed GraphQL document: executable definitions, type-system definitions, or both.
public struct Document: Sendable, Hashable {
    /// The range from the first to the last token.
    public var range: SourceRange
    /// The definitions in the order they were written.
    public var definitions: [Definition]
    /// The source the document was parsed from; `nil` for documents built in code.
    public var source: Source?
}

extension Document {
    /// Creates a document.
    /// - Parameters:
    ///   - definitions: The definitions in order.
    ///   - range: The byte range the document covers.
    ///   - source: The source it was parsed from, if any.
    public init(definitions: [Definition], range: SourceRange = .none, source: Source? = nil) {
        self.init(range: range, definitions: definitions, source: source)
    }
}

/// One top-level definition of a document.
public enum Definition: Sendable, Hashable {
    /// A query, mutation or subscription.
    case operation(OperationDefinition)
    /// A named fragment.
    case fragment(FragmentDefinition)
    /// A `schema { ... }` definition.
    case schema(SchemaDefinition)
    /// An `extend schema ...` extension.
    case schemaExtension(SchemaExtension)
    /// A scalar, object, interface, union, enum or input object type definition.
    case type(TypeDefinition)
    /// An `extend type ...` (or other type kind) extension.
    case typeExtension(TypeExtension)
    /// A `directive @name ... on ...` definition.
    case directive(DirectiveDefinition)

    /// The byte range of the definition.
    public var range: SourceRange {
        switch self {
        case .operation(let node): node.range
        case .fragment(let node): node.range
        case .schema(let node): node.range
        case .schemaExtension(let node): node.range
        case .type(let node): node.range
        case .typeExtension(let node): node.range
        case .directive(let node): node.range
        }
    }

    /// Whether the definition belongs to an executable document (an operation or a fragment).
    public var isExecutable: Bool {
        switch self {
        case .operation, .fragment: true
        default: false
        }
    }
}

/// A name token: the identifier and where it was written.
public struct Name: Sendable, Hashable {
    /// The byte range of the name.
    public var range: SourceRange
    /// The identifier, matching `/[_A-Za-z][_0-9A-Za-z]*/`.
    public var value: String
}

extension Name {
    /// Creates a name.
    /// - Parameters:
    ///   - value: The identifier.
    ///   - range: Where it was written.
    public init(_ value: String, range: SourceRange = .none) {
        self.init(range: range, value: value)
    }
}

/// The kind of an operation.
public enum OperationType: String, Sendable, Hashable, CaseIterable {
    /// `query`, also the kind of the `{ ... }` shorthand.
    case query
    /// `mutation`.
    case mutation
    /// `subscription`.
    case subscription
}

/// A query, mutation or subscription, possibly written as the `{ ... }` shorthand.
public struct OperationDefinition: Sendable, Hashable {
    /// The byte range of the definition.
    public var range: SourceRange
    /// The kind of operation.
    public var operation: OperationType
    /// The name; `nil` for anonymous operations.
    public var name: Name?
    /// The variables the operation declares.
    public var variableDefinitions: [VariableDefinition]
    /// The directives on the operation.
    public var directives: [Directive]
    /// The top-level selections.
    public var selectionSet: SelectionSet

    /// Whether the operation was written as the bare `{ ... }` shorthand.
    ///
    /// True when it is an unnamed query without variables or directives, the only form that the
    /// shorthand can express.
    public var isShorthand: Bool {
        operation == .query && name == nil && variableDefinitions.isEmpty && directives.isEmpty
    }
}

extension OperationDefinition {
    /// Creates an operation definition.
    /// - Parameters:
    ///   - operation: The kind of operation.
    ///   - name: The name, if any.
    ///   - variableDefinitions: The declared variables.
    ///   - directives: The directives.
    ///   - selectionSet: The top-level selections.
    ///   - range: Where it was written.
    public init(
        operation: OperationType, name: Name? = nil, variableDefinitions: [VariableDefinition] = [],
        directives: [Directive] = [], selectionSet: SelectionSet, range: SourceRange = .none
    ) {
        self.init(
            range: range, operation: operation, name: name, variableDefinitions: variableDefinitions,
            directives: directives, selectionSet: selectionSet
        )
    }
}

/// A variable declared by an operation: `$name: Type = default @directives`.
public struct VariableDefinition: Sendable, Hashable {
    /// The byte range of the definition.
    public var range: SourceRange
    /// The variable.
    public var variable: Variable
    /// Its type.
    public var type: TypeReference
    /// The default value, if any.
    public var defaultValue: Value?
    /// The directives on the definition.
    public var directives: [Directive]
}

extension VariableDefinition {
    /// Creates a variable definition.
    /// - Parameters:
    ///   - variable: The variable.
    ///   - type: Its type.
    ///   - defaultValue: The default value, if any.
    ///   - directives: The directives.
    ///   - range: Where it was written.
    public init(
        variable: Variable, type: TypeReference, defaultValue: Value? = nil, directives: [Directive] = [],
        range: SourceRange = .none
    ) {
        self.init(range: range, variable: variable, type: type, defaultValue: defaultValue, directives: directives)
    }
}

/// A variable reference: `$name`.
public struct Variable: Sendable, Hashable {
    /// The byte range including the `$`.
    public var range: SourceRange
    /// The name without the `$`.
    public var name: Name
}

extension Variable {
    /// Creates a variable reference.
    /// - Parameters:
    ///   - name: The name without the `$`.
    ///   - range: Where it was written.
    public init(name: Name, range: SourceRange = .none) {
        self.init(range: range, name: name)
    }
}

/// A named fragment: `fragment Name on Type @directives { ... }`.
public struct FragmentDefinition: Sendable, Hashable {
    /// The byte range of the definition.
    public var range: SourceRange
    /// The fragment's name (never `on`).
    public var name: Name
    /// The type the fragment applies to.
    public var typeCondition: NamedType
    /// The directives on the fragment.
    public var directives: [Directive]
    /// The fragment's selections.
    public var selectionSet: SelectionSet
}

extension FragmentDefinition {
    /// Creates a fragment definition.
    /// - Parameters:
    ///   - name: The name.
    ///   - typeCondition: The type it applies to.
    ///   - directives: The directives.
    ///   - selectionSet: The selections.
    ///   - range: Where it was written.
    public init(
        name: Name, typeCondition: NamedType, directives: [Directive] = [], selectionSet: SelectionSet,
        range: SourceRange = .none
    ) {
        self.init(
            range: range, name: name, typeCondition: typeCondition, directives: directives, selectionSet: selectionSet
        )
    }
}
