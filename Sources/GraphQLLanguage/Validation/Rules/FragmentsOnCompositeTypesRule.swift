/// Fragments On Composite Types — https://spec.graphql.org/October2021/#sec-Fragments-On-Composite-Types
///
/// A fragment's type condition names an object, interface or union type.
enum FragmentsOnCompositeTypesRule {
    /// Checks an inline fragment whose type condition names the type at `conditionIndex`.
    static func check(_ inline: InlineFragment, conditionIndex: Int, in context: inout ValidationContext) {
        guard let condition = inline.typeCondition, !context.schema.kind(conditionIndex).isComposite else { return }
        context.report(
            .fragmentsOnCompositeTypes,
            "Fragment cannot condition on non composite type \"\(condition.name.value)\".",
            [context.place(condition.range.start)]
        )
    }

    /// Checks a fragment definition whose type condition names the type at `conditionIndex`.
    static func check(_ fragment: FragmentDefinition, conditionIndex: Int, in context: inout ValidationContext) {
        let condition = fragment.typeCondition
        guard !context.schema.kind(conditionIndex).isComposite else { return }
        context.report(
            .fragmentsOnCompositeTypes,
            "Fragment \"\(fragment.name.value)\" cannot condition on non composite type \"\(condition.name.value)\".",
            [context.place(condition.range.start)]
        )
    }
}
