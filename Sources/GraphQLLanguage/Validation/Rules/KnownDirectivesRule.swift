/// Directives Are Defined — https://spec.graphql.org/October2021/#sec-Directives-Are-Defined
/// and Directives Are In Valid Locations —
/// https://spec.graphql.org/October2021/#sec-Directives-Are-In-Valid-Locations
///
/// Every directive used is defined by the schema and allowed where it is used.
enum KnownDirectivesRule {
    static func check(
        _ directive: Directive, _ definition: Schema.Directive?, location: DirectiveLocation,
        in context: inout ValidationContext
    ) {
        let place = context.place(directive.range.start)
        guard let definition else {
            context.report(.knownDirectives, "Unknown directive \"@\(directive.name.value)\".", [place])
            return
        }
        if !definition.allows(location) {
            context.report(.knownDirectives,
                           "Directive \"@\(directive.name.value)\" may not be used on \(location.rawValue).", [place])
        }
    }
}
