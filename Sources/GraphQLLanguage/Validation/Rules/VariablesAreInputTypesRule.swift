/// Variables Are Input Types — https://spec.graphql.org/October2021/#sec-Variables-Are-Input-Types
///
/// A variable's type is a scalar, an enum or an input object, possibly wrapped.
enum VariablesAreInputTypesRule {
    static func check(_ definition: VariableDefinition, _ type: Schema.TypeRef?, in context: inout ValidationContext) {
        guard let type, !context.schema.kind(type.namedIndex).isInput else { return }
        context.report(
            .variablesAreInputTypes,
            "Variable \"$\(definition.variable.name.value)\" cannot be non-input type "
                + "\"\(TypePrinter.print(definition.type))\".",
            [context.place(definition.type.range.start)]
        )
    }
}
