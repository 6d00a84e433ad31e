/// Selection limits — not a rule of the specification (https://spec.graphql.org/October2021/#sec-Validation
/// leaves resource limits to implementations), but what keeps validating hostile documents cheap.
///
/// The walk measures each operation and fragment on its own (its fields, its deepest selection set,
/// the fragments it spreads and where); from that, the size and depth of every operation with its
/// fragments expanded are computed without expanding anything, each fragment's figures once from
/// those of the fragments it spreads. An operation that selects more than
/// ``Validator/Limits/maxSelections`` fields, or nests deeper than ``Validator/Limits/maxDepth``
/// selection sets (each fragment spread counting as one more), is reported, and field merging,
/// whose work grows with the expansion, is skipped for the unit. A fragment-doubling bomb is thus
/// rejected in time linear in its text.
enum SelectionLimitsRule {
    /// The expanded size and depth of a definition, both saturating just above their limits.
    struct Cost {
        var selections = 0
        var depth = 0
    }

    private struct Frame {
        var fragment: Int
        var next: Int
    }

    /// Runs after the walk, which measured every definition.
    static func check(in context: inout ValidationContext) {
        let limits = context.limits
        let costs = fragmentCosts(context)
        var exceeded = false
        for index in context.operations.indices {
            let cost = combine(context.sizeOfOperation[index], costs, limits)
            guard let problem = describe(cost, limits) else { continue }
            exceeded = true
            let operation = context.operations[index].definition
            let document = context.operations[index].document
            let name = operation.name.map { "Operation \"\($0.value)\"" } ?? "Anonymous operation"
            context.report(.selectionLimits, "\(name) \(problem) once its fragments are expanded.",
                           [Place(document: document, offset: operation.range.start)])
        }
        if !exceeded {
            // Fragments no operation reaches are still checked by other rules: report the outermost.
            var spreadByOthers = Array(repeating: false, count: context.fragments.count)
            for (index, size) in context.sizeOfFragment.enumerated() {
                for spread in size.spreads {
                    if let target = spread.fragment, target != index { spreadByOthers[target] = true }
                }
            }
            for (index, fragment) in context.fragments.enumerated() where !spreadByOthers[index] {
                guard let problem = describe(costs[index], limits) else { continue }
                exceeded = true
                context.report(
                    .selectionLimits,
                    "Fragment \"\(fragment.definition.name.value)\" \(problem) once its fragments are expanded.",
                    [Place(document: fragment.document, offset: fragment.definition.range.start)]
                )
            }
        }
        if exceeded { context.enabled.remove(.overlappingFieldsCanBeMerged) }
    }

    private static func describe(_ cost: Cost, _ limits: Validator.Limits) -> String? {
        if cost.selections > limits.maxSelections { return "selects more than \(limits.maxSelections) fields" }
        if cost.depth > limits.maxDepth { return "nests more than \(limits.maxDepth) levels deep" }
        return nil
    }

    /// A definition's cost from its own size and the costs of the fragments it spreads (a fragment
    /// whose cost is not known yet, being on the current path, counts as empty).
    private static func combine(_ size: LocalSize, _ costs: [Cost], _ limits: Validator.Limits) -> Cost {
        var cost = Cost(selections: min(size.fields, limits.maxSelections + 1), depth: size.depth)
        for spread in size.spreads {
            guard let target = spread.fragment else { continue }
            let depth = spread.depth
            let inner = costs[target]
            cost.selections = min(cost.selections + inner.selections, limits.maxSelections + 1)
            cost.depth = min(max(cost.depth, depth + inner.depth), limits.maxDepth + 1)
        }
        return cost
    }

    /// Every fragment's cost, each computed after those of the fragments it spreads (a depth-first
    /// search with an explicit stack; cycles are NoFragmentCyclesRule's to report).
    private static func fragmentCosts(_ context: ValidationContext) -> [Cost] {
        let count = context.fragments.count
        var costs = Array(repeating: Cost(), count: count)
        var state = Array(repeating: 0, count: count)  // 0 new, 1 on the path, 2 done
        for root in 0..<count where state[root] == 0 {
            var stack: [Frame] = [Frame(fragment: root, next: 0)]
            state[root] = 1
            while let frame = stack.last {
                let spreads = context.sizeOfFragment[frame.fragment].spreads
                if frame.next < spreads.count {
                    stack[stack.count - 1].next += 1
                    if let target = spreads[frame.next].fragment, state[target] == 0 {
                        state[target] = 1
                        stack.append(Frame(fragment: target, next: 0))
                    }
                    continue
                }
                costs[frame.fragment] = combine(context.sizeOfFragment[frame.fragment], costs, context.limits)
                state[frame.fragment] = 2
                stack.removeLast()
            }
        }
        return costs
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
