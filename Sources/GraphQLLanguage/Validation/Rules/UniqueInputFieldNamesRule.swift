/// Input Object Field Uniqueness — https://spec.graphql.org/October2021/#sec-Input-Object-Field-Uniqueness
///
/// An input object value names each field once.
enum UniqueInputFieldNamesRule {
    static func check(_ object: ObjectValue, in context: inout ValidationContext) {
        var seen: [String: Place] = [:]
        for field in object.fields {
            let place = context.place(field.name.range.start)
            if let first = seen[field.name.value] {
                context.report(.uniqueInputFieldNames,
                               "There can be only one input field named \"\(field.name.value)\".", [first, place])
            } else {
                seen[field.name.value] = place
            }
        }
    }
}
