/// Variable Uniqueness — https://spec.graphql.org/October2021/#sec-Variable-Uniqueness
///
/// An operation defines each variable once.
enum UniqueVariableNamesRule {
    static func check(_ operation: OperationDefinition, in context: inout ValidationContext) {
        let definitions = operation.variableDefinitions
        guard definitions.count > 1 else { return }
        var hasDuplicate = false
        for (index, definition) in definitions.enumerated() where !hasDuplicate {
            let name = definition.variable.name.value
            hasDuplicate = definitions[(index + 1)...].contains { $0.variable.name.value == name }
        }
        guard hasDuplicate else { return }
        for (name, group) in SDLValidator.grouped(definitions.map(\.variable.name)) where group.count > 1 {
            context.report(.uniqueVariableNames, "There can be only one variable named \"$\(name)\".",
                           group.map { context.place($0.range.start) })
        }
    }
}
