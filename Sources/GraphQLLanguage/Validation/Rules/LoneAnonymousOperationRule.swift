/// Lone Anonymous Operation — https://spec.graphql.org/October2021/#sec-Lone-Anonymous-Operation
///
/// An operation without a name must be the only operation of the compilation unit.
enum LoneAnonymousOperationRule {
    static func check(_ operation: OperationDefinition, in context: inout ValidationContext) {
        if operation.name == nil, context.operations.count > 1 {
            context.report(.loneAnonymousOperation, "This anonymous operation must be the only defined operation.",
                           [context.place(operation.range.start)])
        }
    }
}
