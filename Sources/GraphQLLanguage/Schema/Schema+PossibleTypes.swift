extension Schema {
    /// The names of the object types a value of the named type can have at run time: the type
    /// itself for an object, a union's members, an interface's implementations (declaration
    /// order); empty for other kinds and unknown names. Code generation uses it to decide which
    /// `__typename` values a type condition matches.
    package func possibleTypeNames(of typeName: String) -> [String] {
        guard let index = typeIndex(named: typeName) else { return [] }
        return possibleTypes(of: index).map { types[$0].name }
    }
}
