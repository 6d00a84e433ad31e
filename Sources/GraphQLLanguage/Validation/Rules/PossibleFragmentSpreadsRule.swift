/// Fragment Spread Is Possible — https://spec.graphql.org/October2021/#sec-Fragment-spread-is-possible
///
/// A fragment may be spread only where some object could be both of the fragment's type and of the
/// enclosing type.
enum PossibleFragmentSpreadsRule {
    static func check(
        _ inline: InlineFragment, fragmentType: Int, parentType: Int, in context: inout ValidationContext
    ) {
        let schema = context.schema
        guard schema.kind(fragmentType).isComposite, !schema.doTypesOverlap(fragmentType, parentType) else {
            return
        }
        context.report(
            .possibleFragmentSpreads,
            "Fragment cannot be spread here as objects of type \"\(schema.types[parentType].name)\" can never be of "
                + "type \"\(schema.types[fragmentType].name)\".",
            [context.place(inline.range.start)]
        )
    }

    static func check(
        _ spread: FragmentSpread, fragmentType: Int, parentType: Int, in context: inout ValidationContext
    ) {
        let schema = context.schema
        guard fragmentType >= 0, !schema.doTypesOverlap(fragmentType, parentType) else { return }
        context.report(
            .possibleFragmentSpreads,
            "Fragment \"\(spread.name.value)\" cannot be spread here as objects of type "
                + "\"\(schema.types[parentType].name)\" can never be of type \"\(schema.types[fragmentType].name)\".",
            [context.place(spread.range.start)]
        )
    }
}
