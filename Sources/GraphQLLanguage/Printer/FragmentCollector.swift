/// Collects the fragments an operation uses, transitively, each once.
///
/// Selection sets are walked with an explicit stack, and every fragment is visited once however
/// often it is spread, so deep nesting cannot exhaust the call stack and fragment cycles end.
struct FragmentCollector {
    private var stack: [SelectionFrame] = []
    /// The names collected so far, as a set once there are too many to search linearly.
    private var seen: Set<String> = []

    /// The fragments `operation` uses, in the order `document` defines them.
    mutating func fragments(
        usedBy operation: OperationDefinition, in table: inout DocumentIndex
    ) throws(OperationSelectionError) -> [(definition: FragmentDefinition, index: Int)] {
        var names: [String] = []
        collectSpreads(in: operation.selectionSet, into: &names)
        guard !names.isEmpty else { return [] }
        var found: [(definition: FragmentDefinition, index: Int)] = []
        var users: [String?] = Array(repeating: operation.name?.value, count: names.count)
        var next = 0
        while next < names.count {
            let fragment = try table.fragment(named: names[next], usedBy: users[next])
            found.append(fragment)
            let before = names.count
            collectSpreads(in: fragment.definition.selectionSet, into: &names)
            for _ in before..<names.count { users.append(fragment.definition.name.value) }
            next += 1
        }
        found.sort { $0.index < $1.index }
        return found
    }

    /// Appends the names of the fragments spread in `set` that `names` does not hold yet.
    private mutating func collectSpreads(in set: SelectionSet, into names: inout [String]) {
        stack.removeAll(keepingCapacity: true)
        stack.append(SelectionFrame(selections: set.selections, index: 0))
        while let last = stack.indices.last {
            let index = stack[last].index
            guard index < stack[last].selections.count else {
                stack.removeLast()
                continue
            }
            stack[last].index = index + 1
            switch stack[last].selections[index] {
            case .field(let field):
                if let child = field.selectionSet, !child.selections.isEmpty {
                    stack.append(SelectionFrame(selections: child.selections, index: 0))
                }
            case .fragmentSpread(let spread):
                let name = spread.name.value
                if names.count < 16 {
                    if names.contains(name) { continue }
                    if names.count == 15 { seen = Set(names + [name]) }
                } else if !seen.insert(name).inserted {
                    continue
                }
                names.append(name)
            case .inlineFragment(let fragment):
                if !fragment.selectionSet.selections.isEmpty {
                    stack.append(SelectionFrame(selections: fragment.selectionSet.selections, index: 0))
                }
            }
        }
    }
}
