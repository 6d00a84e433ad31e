/// Fragments On Composite Types — https://spec.graphql.org/October2021/#sec-Fragments-On-Composite-Types
///
/// A fragment's type condition names an object, interface or union type.
enum FragmentsOnCompositeTypesRule {
    static func check(_ inline: InlineFragment, in context: inout ValidationContext) {
        guard let condition = inline.typeCondition, isNonComposite(condition, context) else { return }
        context.report(
            .fragmentsOnCompositeTypes,
            "Fragment cannot condition on non composite type \"\(condition.name.value)\".",
            [context.place(condition.range.start)]
        )
    }

    static func check(_ fragment: FragmentDefinition, in context: inout ValidationContext) {
        let condition = fragment.typeCondition
        guard isNonComposite(condition, context) else { return }
        context.report(
            .fragmentsOnCompositeTypes,
            "Fragment \"\(fragment.name.value)\" cannot condition on non composite type \"\(condition.name.value)\".",
            [context.place(condition.range.start)]
        )
    }

    private static func isNonComposite(_ condition: NamedType, _ context: ValidationContext) -> Bool {
        guard let index = context.schema.typeIndex(named: condition.name.value) else { return false }
        return !context.schema.kind(index).isComposite
    }
}
