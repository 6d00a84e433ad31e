/// All Variable Usages Are Allowed — https://spec.graphql.org/October2021/#sec-All-Variable-Usages-are-Allowed
///
/// A variable is used only where its type fits: a nullable variable may go into a non-null
/// position only when the variable or the position has a default value.
enum VariablesInAllowedPositionRule {
    static func finish(operation: Int, usages: [VariableUsage], in context: inout ValidationContext) {
        let definition = context.operations[operation].definition
        let document = context.operations[operation].document
        let definitions = definition.variableDefinitions
        let types = context.variableTypesOfOperation[operation]
        // The last definition of a name, as graphql-js's map of definitions keeps it.
        var byName: [String: Int] = [:]
        if definitions.count > 32 {
            for (index, variable) in definitions.enumerated() { byName[variable.variable.name.value] = index }
        }
        let schema = context.schema
        for usage in usages {
            guard let locationType = usage.type,
                let index = definitions.count > 32
                    ? byName[usage.name] : definitions.lastIndex(where: { $0.variable.name.value == usage.name }),
                index < types.count, let variableType = types[index]
            else { continue }
            let variable = definitions[index]
            guard !isAllowed(schema, variableType, variable.defaultValue, locationType, usage.hasLocationDefault) else {
                continue
            }
            context.report(
                .variablesInAllowedPosition,
                "Variable \"$\(usage.name)\" of type \"\(schema.name(of: variableType))\" used in position expecting "
                    + "type \"\(schema.name(of: locationType))\".",
                [Place(document: document, offset: variable.range.start), usage.place]
            )
        }
    }

    private static func isAllowed(
        _ schema: Schema, _ variableType: Schema.TypeRef, _ variableDefault: Value?, _ locationType: Schema.TypeRef,
        _ locationHasDefault: Bool
    ) -> Bool {
        if locationType.isNonNull, !variableType.isNonNull {
            var hasNonNullDefault = false
            if let variableDefault {
                if case .null = variableDefault {} else { hasNonNullDefault = true }
            }
            guard hasNonNullDefault || locationHasDefault else { return false }
            return schema.isTypeSubType(variableType, of: locationType.nullable)
        }
        return schema.isTypeSubType(variableType, of: locationType)
    }
}
