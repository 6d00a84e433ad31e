/// Argument Names — https://spec.graphql.org/October2021/#sec-Argument-Names
///
/// Every argument given to a field or directive is one it defines.
enum KnownArgumentNamesRule {
    static func reportFieldArgument(_ argument: Argument, field: FieldRef, in context: inout ValidationContext) {
        let definition = context.schema.field(field)
        let suggestions = Suggestions.list(argument.name.value, definition.arguments.map(\.name))
        context.report(
            .knownArgumentNames,
            "Unknown argument \"\(argument.name.value)\" on field "
                + "\"\(context.schema.types[field.typeIndex].name).\(definition.name)\"."
                + Suggestions.didYouMean(suggestions),
            [context.place(argument.range.start)]
        )
    }

    static func checkDirectiveArguments(
        _ directive: Directive, _ definition: Schema.Directive, in context: inout ValidationContext
    ) {
        for argument in directive.arguments
        where !definition.arguments.contains(where: { $0.name == argument.name.value }) {
            let suggestions = Suggestions.list(argument.name.value, definition.arguments.map(\.name))
            context.report(
                .knownArgumentNames,
                "Unknown argument \"\(argument.name.value)\" on directive \"@\(definition.name)\"."
                    + Suggestions.didYouMean(suggestions),
                [context.place(argument.range.start)]
            )
        }
    }
}
