/// Fragments Must Be Used — https://spec.graphql.org/October2021/#sec-Fragments-Must-Be-Used
///
/// Every fragment of the compilation unit is used by some operation, directly or through other
/// fragments. A fragment-only file is fine as long as operations elsewhere in the unit use its
/// fragments.
enum NoUnusedFragmentsRule {
    static func finish(usedFragments: Set<String>, in context: inout ValidationContext) {
        for fragment in context.fragments where !usedFragments.contains(fragment.definition.name.value) {
            context.report(
                .noUnusedFragments, "Fragment \"\(fragment.definition.name.value)\" is never used.",
                [Place(document: fragment.document, offset: fragment.definition.range.start)]
            )
        }
    }
}
