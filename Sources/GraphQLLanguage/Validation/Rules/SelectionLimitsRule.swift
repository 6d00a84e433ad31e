/// Selection limits — not a rule of the specification (https://spec.graphql.org/October2021/#sec-Validation
/// leaves resource limits to implementations), but what keeps validating hostile documents cheap.
///
/// Before the walk, the size and depth of every operation with its fragments expanded are computed
/// without expanding anything: each fragment's figures are computed once, from those of the
/// fragments it spreads. An operation that selects more than ``Validator/Limits/maxSelections``
/// fields, or nests deeper than ``Validator/Limits/maxDepth`` levels (each fragment spread counts as
/// a level), is reported, and the rules whose work grows with that expansion (overlapping fields,
/// introspection depth) are turned off for the unit. A fragment-doubling bomb is thus rejected
/// in time linear in its text.
enum SelectionLimitsRule {
    /// The expanded size and depth of a selection set, both saturating just above their limits.
    struct Cost {
        var selections = 0
        var depth = 0
    }

    static func check(in context: inout ValidationContext) {
        let limits = context.limits
        var costs = Array<Cost?>(repeating: nil, count: context.fragments.count)
        computeFragmentCosts(&costs, in: &context)
        var exceeded = false
        for (operation, document) in context.operations {
            let cost = evaluate(operation.selectionSet, costs, nesting: 0, in: context)
            guard let problem = describe(cost, limits) else { continue }
            exceeded = true
            let name = operation.name.map { "Operation \"\($0.value)\"" } ?? "Anonymous operation"
            context.report(.selectionLimits, "\(name) \(problem) once its fragments are expanded.",
                           [Place(document: document, offset: operation.range.start)])
        }
        if !exceeded {
            // Fragments no operation reaches are still checked by other rules: report the outermost.
            var spreadByOthers = Set<String>()
            for index in context.fragments.indices {
                for spread in context.spreads(ofFragment: index)
                where spread.name.value != context.fragments[index].definition.name.value {
                    spreadByOthers.insert(spread.name.value)
                }
            }
            for (index, fragment) in context.fragments.enumerated()
            where !spreadByOthers.contains(fragment.definition.name.value) {
                guard let cost = costs[index], let problem = describe(cost, limits) else { continue }
                exceeded = true
                context.report(
                    .selectionLimits,
                    "Fragment \"\(fragment.definition.name.value)\" \(problem) once its fragments are expanded.",
                    [Place(document: fragment.document, offset: fragment.definition.range.start)]
                )
            }
        }
        if exceeded {
            context.enabled.remove(.overlappingFieldsCanBeMerged)
            context.enabled.remove(.maxIntrospectionDepth)
        }
    }

    private static func describe(_ cost: Cost, _ limits: Validator.Limits) -> String? {
        if cost.selections > limits.maxSelections { return "selects more than \(limits.maxSelections) fields" }
        if cost.depth > limits.maxDepth { return "nests more than \(limits.maxDepth) levels deep" }
        return nil
    }

    /// Computes every fragment's cost after those of the fragments it spreads (a depth-first search
    /// with an explicit stack; a fragment on the current path counts as empty, since cycles are
    /// NoFragmentCyclesRule's to report).
    private static func computeFragmentCosts(_ costs: inout [Cost?], in context: inout ValidationContext) {
        var onPath = Array(repeating: false, count: context.fragments.count)
        for root in context.fragments.indices where costs[root] == nil {
            var stack: [(fragment: Int, spreads: [FragmentSpread], next: Int)] = []
            onPath[root] = true
            stack.append((root, context.spreads(ofFragment: root), 0))
            while let frame = stack.last {
                if frame.next < frame.spreads.count {
                    stack[stack.count - 1].next += 1
                    guard let target = context.fragmentIndex(named: frame.spreads[frame.next].name.value),
                        costs[target] == nil, !onPath[target]
                    else { continue }
                    onPath[target] = true
                    stack.append((target, context.spreads(ofFragment: target), 0))
                    continue
                }
                costs[frame.fragment] = evaluate(
                    context.fragments[frame.fragment].definition.selectionSet, costs, nesting: 0, in: context
                )
                onPath[frame.fragment] = false
                stack.removeLast()
            }
        }
    }

    /// The cost of a selection set, given the costs of the fragments computed so far.
    private static func evaluate(_ selectionSet: SelectionSet, _ costs: [Cost?], nesting: Int,
                                 in context: ValidationContext) -> Cost {
        let limits = context.limits
        var cost = Cost()
        guard nesting <= limits.maxDepth else {
            cost.depth = limits.maxDepth + 1
            return cost
        }
        for selection in selectionSet.selections {
            var selections = 0
            var depth = 0
            switch selection {
            case .field(let field):
                selections = 1
                depth = 1
                if let nested = field.selectionSet {
                    let inner = evaluate(nested, costs, nesting: nesting + 1, in: context)
                    selections += inner.selections
                    depth += inner.depth
                }
            case .inlineFragment(let inline):
                let inner = evaluate(inline.selectionSet, costs, nesting: nesting + 1, in: context)
                selections = inner.selections
                depth = inner.depth
            case .fragmentSpread(let spread):
                if let index = context.fragmentIndex(named: spread.name.value), let inner = costs[index] {
                    selections = inner.selections
                    depth = inner.depth + 1
                }
            }
            cost.selections = min(cost.selections + selections, limits.maxSelections + 1)
            cost.depth = min(max(cost.depth, depth), limits.maxDepth + 1)
        }
        return cost
    }

    /// Reports, once, a document nested deeper than the walk goes.
    static func reportWalkDepth(at selectionSet: SelectionSet, in context: inout ValidationContext) {
        reportWalkDepth(offset: selectionSet.range.start, in: &context)
    }

    /// Reports, once, a value nested deeper than the walk goes.
    static func reportWalkDepth(at value: Value, in context: inout ValidationContext) {
        reportWalkDepth(offset: value.range.start, in: &context)
    }

    private static func reportWalkDepth(offset: Int, in context: inout ValidationContext) {
        guard !context.reportedWalkDepth else { return }
        context.reportedWalkDepth = true
        context.report(
            .selectionLimits,
            "Document nests deeper than \(context.limits.maxDepth) levels; what is below was not validated.",
            [context.place(offset)]
        )
    }
}
