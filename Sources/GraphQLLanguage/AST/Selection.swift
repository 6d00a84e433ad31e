/// A `{ ... }` block of selections.
public struct SelectionSet: Sendable, Hashable {
    /// The byte range from `{` to `}`.
    public var range: SourceRange
    /// The selections in the order written (never empty when parsed).
    public var selections: [Selection]
}

extension SelectionSet {
    /// Creates a selection set.
    /// - Parameters:
    ///   - selections: The selections in order.
    ///   - range: Where it was written.
    public init(selections: [Selection], range: SourceRange = .none) {
        self.init(range: range, selections: selections)
    }
}

/// One entry of a selection set.
public enum Selection: Sendable, Hashable {
    /// A field, possibly aliased, with its own selections.
    case field(Field)
    /// `...FragmentName`.
    case fragmentSpread(FragmentSpread)
    /// `... on Type { ... }` or `... { ... }`.
    case inlineFragment(InlineFragment)

    /// The byte range of the selection.
    public var range: SourceRange {
        switch self {
        case .field(let node): node.range
        case .fragmentSpread(let node): node.range
        case .inlineFragment(let node): node.range
        }
    }

    /// The directives on the selection.
    public var directives: [Directive] {
        switch self {
        case .field(let node): node.directives
        case .fragmentSpread(let node): node.directives
        case .inlineFragment(let node): node.directives
        }
    }
}

/// A field selection: `alias: name(arguments) @directives { ... }`.
public struct Field: Sendable, Hashable {
    /// The byte range of the field.
    public var range: SourceRange
    /// The alias, if one was written.
    public var alias: Name?
    /// The field's name.
    public var name: Name
    /// The arguments in the order written.
    public var arguments: [Argument]
    /// The directives.
    public var directives: [Directive]
    /// The sub-selections, if any.
    public var selectionSet: SelectionSet?

    /// The key the field's value appears under in a response: the alias, or else the name.
    public var responseKey: String { alias?.value ?? name.value }
}

extension Field {
    /// Creates a field selection.
    /// - Parameters:
    ///   - alias: The alias, if any.
    ///   - name: The field name.
    ///   - arguments: The arguments.
    ///   - directives: The directives.
    ///   - selectionSet: The sub-selections, if any.
    ///   - range: Where it was written.
    public init(
        alias: Name? = nil, name: Name, arguments: [Argument] = [], directives: [Directive] = [],
        selectionSet: SelectionSet? = nil, range: SourceRange = .none
    ) {
        self.init(
            range: range, alias: alias, name: name, arguments: arguments, directives: directives,
            selectionSet: selectionSet
        )
    }
}

/// A fragment spread: `...Name @directives`.
public struct FragmentSpread: Sendable, Hashable {
    /// The byte range from `...` to the end.
    public var range: SourceRange
    /// The name of the spread fragment.
    public var name: Name
    /// The directives.
    public var directives: [Directive]
}

extension FragmentSpread {
    /// Creates a fragment spread.
    /// - Parameters:
    ///   - name: The fragment's name.
    ///   - directives: The directives.
    ///   - range: Where it was written.
    public init(name: Name, directives: [Directive] = [], range: SourceRange = .none) {
        self.init(range: range, name: name, directives: directives)
    }
}

/// An inline fragment: `... on Type @directives { ... }`, the type condition being optional.
public struct InlineFragment: Sendable, Hashable {
    /// The byte range from `...` to `}`.
    public var range: SourceRange
    /// The type condition, if one was written.
    public var typeCondition: NamedType?
    /// The directives.
    public var directives: [Directive]
    /// The selections.
    public var selectionSet: SelectionSet
}

extension InlineFragment {
    /// Creates an inline fragment.
    /// - Parameters:
    ///   - typeCondition: The type condition, if any.
    ///   - directives: The directives.
    ///   - selectionSet: The selections.
    ///   - range: Where it was written.
    public init(
        typeCondition: NamedType? = nil, directives: [Directive] = [], selectionSet: SelectionSet,
        range: SourceRange = .none
    ) {
        self.init(range: range, typeCondition: typeCondition, directives: directives, selectionSet: selectionSet)
    }
}

/// An argument: `name: value`.
public struct Argument: Sendable, Hashable {
    /// The byte range of the argument.
    public var range: SourceRange
    /// The argument's name.
    public var name: Name
    /// Its value.
    public var value: Value
}

extension Argument {
    /// Creates an argument.
    /// - Parameters:
    ///   - name: The name.
    ///   - value: The value.
    ///   - range: Where it was written.
    public init(name: Name, value: Value, range: SourceRange = .none) {
        self.init(range: range, name: name, value: value)
    }
}

/// A directive application: `@name(arguments)`.
public struct Directive: Sendable, Hashable {
    /// The byte range from `@` to the end.
    public var range: SourceRange
    /// The directive's name without the `@`.
    public var name: Name
    /// The arguments in the order written.
    public var arguments: [Argument]
}

extension Directive {
    /// Creates a directive application.
    /// - Parameters:
    ///   - name: The name without the `@`.
    ///   - arguments: The arguments.
    ///   - range: Where it was written.
    public init(name: Name, arguments: [Argument] = [], range: SourceRange = .none) {
        self.init(range: range, name: name, arguments: arguments)
    }
}
