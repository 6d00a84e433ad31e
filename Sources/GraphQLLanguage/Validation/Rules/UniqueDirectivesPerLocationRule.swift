/// Directives Are Unique Per Location — https://spec.graphql.org/October2021/#sec-Directives-Are-Unique-Per-Location
///
/// A directive that is not `repeatable` appears at most once on a node. Unknown directives are
/// left to KnownDirectivesRule.
enum UniqueDirectivesPerLocationRule {
    static func check(_ directives: [Directive], in context: inout ValidationContext) {
        guard directives.count > 1 else { return }
        var seen: [String: Place] = [:]
        for directive in directives {
            let name = directive.name.value
            guard let index = context.schema.directiveIndex(named: name),
                !context.schema.storage.contents.directives[index].isRepeatable
            else { continue }
            let place = context.place(directive.range.start)
            if let first = seen[name] {
                context.report(.uniqueDirectivesPerLocation,
                               "The directive \"@\(name)\" can only be used once at this location.", [first, place])
            } else {
                seen[name] = place
            }
        }
    }
}
