/// Operation Name Uniqueness — https://spec.graphql.org/October2021/#sec-Operation-Name-Uniqueness
///
/// No two operations of a compilation unit share a name.
enum UniqueOperationNamesRule {
    static func check(_ operation: OperationDefinition, in context: inout ValidationContext) {
        guard let name = operation.name else { return }
        let place = context.place(name.range.start)
        if let first = context.operationNamePlaces[name.value] {
            context.report(.uniqueOperationNames, "There can be only one operation named \"\(name.value)\".",
                           [first, place])
        } else {
            context.operationNamePlaces[name.value] = place
        }
    }
}
