/// Argument Uniqueness — https://spec.graphql.org/October2021/#sec-Argument-Uniqueness
///
/// A field or directive is given each argument once.
enum UniqueArgumentNamesRule {
    static func check(_ arguments: [Argument], in context: inout ValidationContext) {
        // Small lists: compare pairwise before grouping anything.
        var hasDuplicate = false
        outer: for index in arguments.indices {
            let name = arguments[index].name.value
            for other in arguments.indices where other > index && arguments[other].name.value == name {
                hasDuplicate = true
                break outer
            }
        }
        guard hasDuplicate else { return }
        for (name, group) in SDLValidator.grouped(arguments.map(\.name)) where group.count > 1 {
            context.report(.uniqueArgumentNames, "There can be only one argument named \"\(name)\".",
                           group.map { context.place($0.range.start) })
        }
    }
}
