/// A directive definition: `description directive @name(arguments) repeatable on LOCATION | ...`.
public struct DirectiveDefinition: Sendable, Hashable {
    /// The byte range, including the description.
    public var range: SourceRange
    /// The description, if any.
    public var description: StringValue?
    /// The directive's name without the `@`.
    public var name: Name
    /// The arguments.
    public var arguments: [InputValueDefinition]
    /// Whether `repeatable` was written.
    public var repeatable: Bool
    /// The locations as written; each is one of ``DirectiveLocation``'s raw values when parsed.
    public var locations: [Name]
}

extension DirectiveDefinition {
    /// Creates a directive definition.
    /// - Parameters:
    ///   - description: The description, if any.
    ///   - name: The name without the `@`.
    ///   - arguments: The arguments.
    ///   - repeatable: Whether the directive is repeatable.
    ///   - locations: The locations.
    ///   - range: Where it was written.
    public init(
        description: StringValue? = nil, name: Name, arguments: [InputValueDefinition] = [],
        repeatable: Bool = false, locations: [Name], range: SourceRange = .none
    ) {
        self.init(
            range: range, description: description, name: name, arguments: arguments, repeatable: repeatable,
            locations: locations
        )
    }
}

/// The places a directive may be used, as named in the spec.
public enum DirectiveLocation: String, Sendable, Hashable, CaseIterable {
    /// On a query operation.
    case query = "QUERY"
    /// On a mutation operation.
    case mutation = "MUTATION"
    /// On a subscription operation.
    case subscription = "SUBSCRIPTION"
    /// On a field selection.
    case field = "FIELD"
    /// On a fragment definition.
    case fragmentDefinition = "FRAGMENT_DEFINITION"
    /// On a fragment spread.
    case fragmentSpread = "FRAGMENT_SPREAD"
    /// On an inline fragment.
    case inlineFragment = "INLINE_FRAGMENT"
    /// On a variable definition.
    case variableDefinition = "VARIABLE_DEFINITION"
    /// On a schema definition or extension.
    case schema = "SCHEMA"
    /// On a scalar type.
    case scalar = "SCALAR"
    /// On an object type.
    case object = "OBJECT"
    /// On a field definition.
    case fieldDefinition = "FIELD_DEFINITION"
    /// On an argument definition.
    case argumentDefinition = "ARGUMENT_DEFINITION"
    /// On an interface type.
    case interface = "INTERFACE"
    /// On a union type.
    case union = "UNION"
    /// On an enum type.
    case `enum` = "ENUM"
    /// On an enum value definition.
    case enumValue = "ENUM_VALUE"
    /// On an input object type.
    case inputObject = "INPUT_OBJECT"
    /// On an input field definition.
    case inputFieldDefinition = "INPUT_FIELD_DEFINITION"
}
