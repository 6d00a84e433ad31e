/// Writes the normalized text described by ``Normalizer``: compact tokens, sorted arguments,
/// variables and input fields, the operation followed by its fragments sorted by name.
///
/// Invariants: ``order`` is a stack of index permutations; whoever pushes onto it truncates it back
/// before returning, so nested sorts (an object inside an argument) never disturb each other.
/// ``spreads`` holds each spread fragment name once, in the order first seen.
struct CompactWriter: ~Copyable {
    var out: TextBuffer
    var selectionStack: [SelectionFrame] = []
    var valueStack: [CompactValueFrame] = []
    var order: [Int] = []
    /// Each fragment name spread, once, with the definition that spread it first (`nil`: an
    /// anonymous operation).
    var spreads: [(name: String, user: String?)] = []
    /// ``spreads`` as a set, filled once there are too many names to search linearly.
    var spreadSet: Set<String> = []
    /// The name of the definition being written.
    var currentUser: String?

    init(capacity: Int) {
        out = TextBuffer(capacity: capacity)
        selectionStack.reserveCapacity(16)
    }

    mutating func normalize(_ index: inout DocumentIndex) throws(OperationSelectionError) -> NormalizedOperation {
        let operation = index.operation
        currentUser = operation.name?.value
        self.operation(operation)
        if spreads.isEmpty {
            return NormalizedOperation(
                bytes: out.bytes, selection: OperationSelection(operation: operation, fragments: []), fragmentNames: [])
        }
        var found: [(definition: FragmentDefinition, index: Int, start: Int, end: Int)] = []
        found.reserveCapacity(spreads.count)
        var next = 0
        while next < spreads.count {
            let (definition, position) = try index.fragment(named: spreads[next].name, usedBy: spreads[next].user)
            let start = out.count
            currentUser = definition.name.value
            fragment(definition)
            found.append((definition, position, start, out.count))
            next += 1
        }
        if found.count == 1 {
            return NormalizedOperation(
                bytes: out.bytes, selection: OperationSelection(operation: operation, fragments: [found[0].definition]),
                fragmentNames: [found[0].definition.name.value])
        }
        // Put the fragments, written in the order found, in name order.
        let byName = found.indices.sorted {
            Self.precedes(found[$0].definition.name.value, found[$1].definition.name.value)
        }
        var bytes: [UInt8]
        if byName.elementsEqual(found.indices) {
            bytes = out.bytes
        } else {
            bytes = []
            bytes.reserveCapacity(out.count)
            bytes.append(contentsOf: out.bytes(from: 0, to: found[0].start))
            for position in byName {
                bytes.append(contentsOf: out.bytes(from: found[position].start, to: found[position].end))
            }
        }
        let names = byName.map { found[$0].definition.name.value }
        found.sort { $0.index < $1.index }
        let selection = OperationSelection(operation: operation, fragments: found.map { $0.definition })
        return NormalizedOperation(bytes: bytes, selection: selection, fragmentNames: names)
    }

    /// Records a spread fragment name, once.
    mutating func noteSpread(_ name: String) {
        if spreads.count < 16 {
            if spreads.contains(where: { $0.name == name }) { return }
        } else {
            if spreadSet.isEmpty { spreadSet = Set(spreads.map(\.name)) }
            guard spreadSet.insert(name).inserted else { return }
        }
        spreads.append((name, currentUser))
    }

    // MARK: - Tokens

    /// Writes a name or keyword, after a space when the previous token would run into it.
    @inline(__always)
    mutating func name(_ text: String) {
        if out.lastByte.isNameContinue { out.byte(0x20) }
        out.text(text)
    }

    @inline(__always)
    mutating func keyword(_ text: StaticString) {
        if out.lastByte.isNameContinue { out.byte(0x20) }
        out.ascii(text)
    }

    /// Writes a number; only one starting with a digit can run into a preceding name or number.
    @inline(__always)
    mutating func number(_ text: String) {
        if out.lastByte.isNameContinue, text.utf8.first != 0x2D { out.byte(0x20) }
        out.text(text)
    }

    @inline(__always)
    mutating func string(_ value: String) {
        if out.lastByte == 0x22 { out.byte(0x20) }
        out.quotedString(value)
    }

    // MARK: - Definitions

    mutating func operation(_ node: OperationDefinition) {
        if !node.isShorthand {
            name(node.operation.rawValue)
            if let operationName = node.name { name(operationName.value) }
            variableDefinitions(node.variableDefinitions)
            directives(node.directives)
        }
        selectionSet(node.selectionSet)
    }

    mutating func fragment(_ node: FragmentDefinition) {
        keyword("fragment")
        name(node.name.value)
        keyword("on")
        name(node.typeCondition.name.value)
        directives(node.directives)
        selectionSet(node.selectionSet)
    }

    mutating func variableDefinitions(_ definitions: [VariableDefinition]) {
        guard !definitions.isEmpty else { return }
        out.byte(0x28)
        let mark = pushOrder(definitions.count) { definitions[$0].variable.name.value }
        for position in 0..<definitions.count {
            let definition = definitions[mark < 0 ? position : order[mark + position]]
            out.byte(0x24)
            out.text(definition.variable.name.value)
            out.byte(0x3A)
            type(definition.type)
            if let defaultValue = definition.defaultValue {
                out.byte(0x3D)
                value(defaultValue)
            }
            directives(definition.directives)
        }
        popOrder(mark)
        out.byte(0x29)
    }

    mutating func directives(_ list: [Directive]) {
        for directive in list {
            out.byte(0x40)
            out.text(directive.name.value)
            arguments(directive.arguments)
        }
    }

    mutating func arguments(_ list: [Argument]) {
        guard !list.isEmpty else { return }
        out.byte(0x28)
        let mark = pushOrder(list.count) { list[$0].name.value }
        for position in 0..<list.count {
            let argument = list[mark < 0 ? position : order[mark + position]]
            name(argument.name.value)
            out.byte(0x3A)
            value(argument.value)
        }
        popOrder(mark)
        out.byte(0x29)
    }

    /// Writes `[`s, the name, then `]`/`!`s, without recursion.
    mutating func type(_ reference: TypeReference) {
        var current = reference
        var wrappers = 0
        while true {
            switch current {
            case .named(let node):
                out.text(node.name.value)
                guard wrappers > 0 else { return }
                var position = out.count + wrappers - 1
                for _ in 0..<wrappers { out.byte(0) }
                var walk = reference
                while position >= 0 {
                    switch walk {
                    case .named: return
                    case .list(let list):
                        out[position] = 0x5D
                        walk = list.type
                    case .nonNull(let nonNull):
                        out[position] = 0x21
                        walk = nonNull.type
                    }
                    position -= 1
                }
                return
            case .list(let node):
                out.byte(0x5B)
                wrappers += 1
                current = node.type
            case .nonNull(let node):
                wrappers += 1
                current = node.type
            }
        }
    }

    // MARK: - Sorting

    /// Pushes the permutation that sorts `count` items by `key`, stably, onto ``order``.
    /// - Returns: Where the permutation starts in ``order``, or -1 when the items are already in
    ///   order (nothing pushed).
    mutating func pushOrder(_ count: Int, key: (Int) -> String) -> Int {
        guard count > 1 else { return -1 }
        var sorted = true
        for index in 1..<count where Self.precedes(key(index), key(index - 1)) {
            sorted = false
            break
        }
        if sorted { return -1 }
        let mark = order.count
        if count > 16 {
            // Long lists (hostile input): ties broken by position make any sort stable.
            order.append(contentsOf: 0..<count)
            order[mark...].sort { lhs, rhs in
                let left = key(lhs)
                let right = key(rhs)
                return left == right ? lhs < rhs : Self.precedes(left, right)
            }
            return mark
        }
        for index in 0..<count {
            // Insertion sort: the lists are short, and it is stable.
            order.append(index)
            var position = mark + index
            while position > mark, Self.precedes(key(order[position]), key(order[position - 1])) {
                order.swapAt(position, position - 1)
                position -= 1
            }
        }
        return mark
    }

    @inline(__always)
    mutating func popOrder(_ mark: Int) {
        if mark >= 0 { order.removeSubrange(mark...) }
    }

    @inline(__always)
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}
