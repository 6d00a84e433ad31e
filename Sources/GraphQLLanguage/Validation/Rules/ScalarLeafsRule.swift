/// Leaf Field Selections — https://spec.graphql.org/October2021/#sec-Leaf-Field-Selections
///
/// A field of a scalar or enum type has no selection set; a field of any other type has one.
enum ScalarLeafsRule {
    static func check(_ field: Field, type: Schema.TypeRef?, in context: inout ValidationContext) {
        guard let type else { return }
        let name = field.name.value
        if context.schema.kind(type.namedIndex).isLeaf {
            if let selectionSet = field.selectionSet {
                context.report(
                    .scalarLeafs,
                    "Field \"\(name)\" must not have a selection since type \"\(context.schema.name(of: type))\" has "
                        + "no subfields.",
                    [context.place(selectionSet.range.start)]
                )
            }
        } else if field.selectionSet == nil {
            context.report(
                .scalarLeafs,
                "Field \"\(name)\" of type \"\(context.schema.name(of: type))\" must have a selection of subfields. "
                    + "Did you mean \"\(name) { ... }\"?",
                [context.place(field.range.start)]
            )
        }
    }
}
