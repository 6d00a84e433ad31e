/// Fragment Name Uniqueness — https://spec.graphql.org/October2021/#sec-Fragment-Name-Uniqueness
///
/// No two fragments of a compilation unit share a name.
enum UniqueFragmentNamesRule {
    static func check(_ fragment: FragmentDefinition, in context: inout ValidationContext) {
        let name = fragment.name
        let place = context.place(name.range.start)
        if let first = context.fragmentNamePlaces[name.value] {
            context.report(.uniqueFragmentNames, "There can be only one fragment named \"\(name.value)\".",
                           [first, place])
        } else {
            context.fragmentNamePlaces[name.value] = place
        }
    }
}
