/// Finds fragment definitions of a document by name.
///
/// Small documents are searched linearly (cheaper than hashing a few names); a dictionary is built
/// on first use once a document has more than 16 definitions.
struct FragmentTable {
    let definitions: [Definition]
    /// Name → index of the definition, or -1 when the name is defined more than once.
    private var byName: [String: Int]?

    init(_ document: Document) {
        definitions = document.definitions
    }

    /// The fragment named `name` and its index among the document's definitions.
    /// - Throws: ``OperationSelectionError/unknownFragment(_:usedBy:)`` or
    ///   ``OperationSelectionError/duplicateFragment(_:)``.
    mutating func fragment(
        named name: String, usedBy user: String?
    ) throws(OperationSelectionError) -> (definition: FragmentDefinition, index: Int) {
        if definitions.count > 16 {
            if byName == nil { byName = Self.index(definitions) }
            guard let index = byName?[name] else { throw .unknownFragment(name, usedBy: user) }
            guard index >= 0, case .fragment(let fragment) = definitions[index] else {
                throw .duplicateFragment(name)
            }
            return (fragment, index)
        }
        var found: (definition: FragmentDefinition, index: Int)?
        for index in definitions.indices {
            guard case .fragment(let fragment) = definitions[index], fragment.name.value == name else { continue }
            if found != nil { throw .duplicateFragment(name) }
            found = (fragment, index)
        }
        guard let found else { throw .unknownFragment(name, usedBy: user) }
        return found
    }

    private static func index(_ definitions: [Definition]) -> [String: Int] {
        var byName: [String: Int] = [:]
        for index in definitions.indices {
            guard case .fragment(let fragment) = definitions[index] else { continue }
            if byName.updateValue(index, forKey: fragment.name.value) != nil {
                byName[fragment.name.value] = -1
            }
        }
        return byName
    }
}

/// Collects the fragments an operation uses, transitively, each once.
///
/// Selection sets are walked with an explicit stack, and every fragment is visited once however
/// often it is spread, so deep nesting cannot exhaust the call stack and fragment cycles end.
struct FragmentCollector {
    private var stack: [SelectionFrame] = []

    /// The fragments `operation` uses, in the order `document` defines them.
    mutating func fragments(
        usedBy operation: OperationDefinition, in document: Document
    ) throws(OperationSelectionError) -> [(definition: FragmentDefinition, index: Int)] {
        var table = FragmentTable(document)
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
                if !names.contains(spread.name.value) { names.append(spread.name.value) }
            case .inlineFragment(let fragment):
                if !fragment.selectionSet.selections.isEmpty {
                    stack.append(SelectionFrame(selections: fragment.selectionSet.selections, index: 0))
                }
            }
        }
    }
}
