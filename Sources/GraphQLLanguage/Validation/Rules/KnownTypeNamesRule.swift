/// Fragment Spread Type Existence — https://spec.graphql.org/October2021/#sec-Fragment-Spread-Type-Existence
///
/// Every type named by a variable definition or a type condition exists in the schema. Unlike in
/// SDL, a built-in scalar the schema never uses (such as `Float`) is unknown, as in graphql-js.
enum KnownTypeNamesRule {
    /// Reports a type name the schema does not have (the walk looks it up once for every rule).
    static func report(_ named: NamedType, in context: inout ValidationContext) {
        let name = named.name.value
        let suggestions = Suggestions.list(name, context.schema.typeNames)
        context.report(.knownTypeNames, "Unknown type \"\(name)\"." + Suggestions.didYouMean(suggestions),
                       [context.place(named.range.start)])
    }
}
