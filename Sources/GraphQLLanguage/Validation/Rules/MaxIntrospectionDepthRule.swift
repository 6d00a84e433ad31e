/// Introspection depth — not a rule of the specification but of graphql-js 16.9 and later, which
/// bounds the cost of introspection queries: https://spec.graphql.org/October2021/#sec-Introspection
///
/// Below a `__schema` or `__type` field, at most two of the list fields `fields`, `interfaces`,
/// `possibleTypes` and `inputFields` may nest. graphql-js walks every path through the fragments,
/// which takes exponential time on a fragment-doubling document; here the answer for a fragment at
/// a given depth is remembered, so each fragment is looked at most three times.
enum MaxIntrospectionDepthRule {
    static let maxListDepth = 3

    struct State {
        /// Per fragment index and depth 0...2: whether the limit is reached below it.
        var memo: [Int: [Bool?]] = [:]
        /// Fragments on the current path, which graphql-js treats as reaching nothing.
        var visiting = Set<Int>()
    }

    /// Checks a field; returns whether it was reported, so that the walk skips its subtree for this
    /// rule as graphql-js does.
    static func check(_ field: Field, in context: inout ValidationContext) -> Bool {
        let name = field.name.value
        guard name.utf8.first == UInt8(ascii: "_"), name == "__schema" || name == "__type" else { return false }
        guard reachesLimit(.field(field), depth: 0, nesting: 0, in: &context) else { return false }
        context.report(.maxIntrospectionDepth, "Maximum introspection depth exceeded",
                       [context.place(field.range.start)])
        return true
    }

    private static func reachesLimit(_ selection: Selection, depth: Int, nesting: Int,
                                     in context: inout ValidationContext) -> Bool {
        // The selection limits bound nesting through fragments; this guard keeps documents built
        // in code from exhausting the stack.
        guard nesting < context.limits.maxDepth else { return false }
        var depth = depth
        let selectionSet: SelectionSet?
        switch selection {
        case .fragmentSpread(let spread):
            guard let fragment = context.fragmentIndex(named: spread.name.value),
                !context.introspectionDepth.visiting.contains(fragment)
            else { return false }
            if let known = context.introspectionDepth.memo[fragment]?[depth] { return known }
            context.introspectionDepth.visiting.insert(fragment)
            var result = false
            for child in context.fragments[fragment].definition.selectionSet.selections
            where reachesLimit(child, depth: depth, nesting: nesting + 1, in: &context) {
                result = true
                break
            }
            context.introspectionDepth.visiting.remove(fragment)
            context.introspectionDepth.memo[fragment, default: [nil, nil, nil]][depth] = result
            return result
        case .field(let field):
            switch field.name.value {
            case "fields", "interfaces", "possibleTypes", "inputFields":
                depth += 1
                if depth >= maxListDepth { return true }
            default:
                break
            }
            selectionSet = field.selectionSet
        case .inlineFragment(let inline):
            selectionSet = inline.selectionSet
        }
        guard let selectionSet else { return false }
        for child in selectionSet.selections
        where reachesLimit(child, depth: depth, nesting: nesting + 1, in: &context) {
            return true
        }
        return false
    }
}
