/// Required Arguments — https://spec.graphql.org/October2021/#sec-Required-Arguments
///
/// Every argument of non-null type without a default is given. Checked on leaving the field or
/// directive, as graphql-js does, so problems inside the arguments come first.
enum ProvidedRequiredArgumentsRule {
    static func check(_ field: Field, _ fieldRef: FieldRef, in context: inout ValidationContext) {
        for argument in context.schema.fieldArguments(fieldRef) where argument.isRequired {
            guard !field.arguments.contains(where: { $0.name.value == argument.name }) else { continue }
            context.report(
                .providedRequiredArguments,
                "Field \"\(field.name.value)\" argument \"\(argument.name)\" of type "
                    + "\"\(context.schema.name(of: argument.type))\" is required, but it was not provided.",
                [context.place(field.range.start)]
            )
        }
    }

    static func check(_ directive: Directive, _ definition: Schema.Directive, in context: inout ValidationContext) {
        for argument in definition.arguments where argument.isRequired {
            guard !directive.arguments.contains(where: { $0.name.value == argument.name }) else { continue }
            context.report(
                .providedRequiredArguments,
                "Directive \"@\(definition.name)\" argument \"\(argument.name)\" of type "
                    + "\"\(context.schema.name(of: argument.type))\" is required, but it was not provided.",
                [context.place(directive.range.start)]
            )
        }
    }
}
