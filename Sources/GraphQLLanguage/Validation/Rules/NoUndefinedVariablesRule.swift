/// All Variable Uses Defined — https://spec.graphql.org/October2021/#sec-All-Variable-Uses-Defined
///
/// Every variable an operation uses, in its own selections or in the fragments it spreads, is
/// defined by the operation.
enum NoUndefinedVariablesRule {
    static func finish(operation: Int, usages: [VariableUsage], in context: inout ValidationContext) {
        let definition = context.operations[operation].definition
        let document = context.operations[operation].document
        let definitions = definition.variableDefinitions
        // Few definitions are searched directly; many are hashed once.
        let defined = definitions.count > 32 ? Set(definitions.map(\.variable.name.value)) : []
        let operationPlace = Place(document: document, offset: definition.range.start)
        for usage in usages {
            let isDefined = definitions.count > 32
                ? defined.contains(usage.name) : definitions.contains { $0.variable.name.value == usage.name }
            guard !isDefined else { continue }
            let message = definition.name.map {
                "Variable \"$\(usage.name)\" is not defined by operation \"\($0.value)\"."
            } ?? "Variable \"$\(usage.name)\" is not defined."
            context.report(.noUndefinedVariables, message, [usage.place, operationPlace])
        }
    }
}
