extension Schema {
    /// The object types a value of `type` can be at run time: a union's members in declaration
    /// order, the object types implementing an interface, or an object type itself; empty for
    /// scalars, enums and input objects (graphql-js `getPossibleTypes`).
    ///
    /// ```swift
    /// let sdl = "type Query { search: [Result!]! } union Result = Track | Artist "
    ///     + "type Track { title: String! } type Artist { name: String! }"
    /// if let schema = Schema.build(sources: [Source(sdl)]).schema, let result = schema.type(named: "Result") {
    ///     print(schema.possibleTypes(of: result).map(\.name))  // ["Track", "Artist"]
    /// }
    /// ```
    /// - Parameter type: A type of this schema.
    /// - Returns: The object types, or an empty array when the schema has no type of that name.
    public func possibleTypes(of type: NamedType) -> [NamedType] {
        guard let index = typeIndex(named: type.name) else { return [] }
        return possibleTypes(of: index).map { types[$0] }
    }

    /// The names of the object types a value of the named type can have at run time (as
    /// `possibleTypes(of:)`); empty for unknown names. Code generation uses it to decide which
    /// `__typename` values a type condition matches.
    package func possibleTypeNames(of typeName: String) -> [String] {
        guard let index = typeIndex(named: typeName) else { return [] }
        return possibleTypes(of: index).map { types[$0].name }
    }
}
