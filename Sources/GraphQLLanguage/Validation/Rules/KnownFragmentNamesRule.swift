/// Fragment Spread Target Defined — https://spec.graphql.org/October2021/#sec-Fragment-spread-target-defined
///
/// Every spread fragment is defined in the compilation unit.
enum KnownFragmentNamesRule {
    static func report(_ spread: FragmentSpread, in context: inout ValidationContext) {
        context.report(.knownFragmentNames, "Unknown fragment \"\(spread.name.value)\".",
                       [context.place(spread.name.range.start)])
    }
}
