/// Fragment Spread Type Existence — https://spec.graphql.org/October2021/#sec-Fragment-Spread-Type-Existence
///
/// Every type named by a variable definition or a type condition exists in the schema. Unlike in
/// SDL, a built-in scalar the schema never uses (such as `Float`) is unknown, as in graphql-js.
enum KnownTypeNamesRule {
    static func check(_ named: NamedType, in context: inout ValidationContext) {
        let name = named.name.value
        guard context.schema.typeIndex(named: name) == nil else { return }
        let suggestions = Suggestions.list(name, context.schema.typeNames)
        context.report(.knownTypeNames, "Unknown type \"\(name)\"." + Suggestions.didYouMean(suggestions),
                       [context.place(named.range.start)])
    }
}
