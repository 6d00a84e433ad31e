/// Fragments Must Be Used — https://spec.graphql.org/October2021/#sec-Fragments-Must-Be-Used
///
/// Every fragment of the compilation unit is used by some operation, directly or through other
/// fragments. A fragment-only file is fine as long as operations elsewhere in the unit use its
/// fragments.
enum NoUnusedFragmentsRule {
    /// - Parameter usedFragments: Per fragment index, whether an operation uses it; a fragment is
    ///   used when the definition its name refers to is.
    static func finish(usedFragments: [Bool], in context: inout ValidationContext) {
        for fragment in context.fragments
        where !(context.fragmentIndex(named: fragment.definition.name.value).map { usedFragments[$0] } ?? false) {
            context.report(
                .noUnusedFragments, "Fragment \"\(fragment.definition.name.value)\" is never used.",
                [Place(document: fragment.document, offset: fragment.definition.range.start)]
            )
        }
    }
}
