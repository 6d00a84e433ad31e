/// All Variables Used — https://spec.graphql.org/October2021/#sec-All-Variables-Used
///
/// Every variable an operation defines is used, in its own selections or in the fragments it spreads.
enum NoUnusedVariablesRule {
    static func finish(operation: Int, usages: [VariableUsage], in context: inout ValidationContext) {
        let definition = context.operations[operation].definition
        let document = context.operations[operation].document
        // Few usages are searched directly; many are hashed once.
        let used = usages.count > 32 ? Set(usages.map(\.name)) : []
        for variable in definition.variableDefinitions {
            let name = variable.variable.name.value
            guard usages.count > 32 ? !used.contains(name) : !usages.contains(where: { $0.name == name }) else {
                continue
            }
            let message = definition.name.map {
                "Variable \"$\(name)\" is never used in operation \"\($0.value)\"."
            } ?? "Variable \"$\(name)\" is never used."
            context.report(.noUnusedVariables, message, [Place(document: document, offset: variable.range.start)])
        }
    }
}
