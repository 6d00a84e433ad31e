/// One list or object value being written compactly and the next member to write; an object's
/// fields go in the order that starts at `order` in ``CompactWriter/order`` (-1: as written).
enum CompactValueFrame {
    case list([Value], Int)
    case object([ObjectField], Int, order: Int)
}

extension CompactWriter {
    /// Writes `{...}` with the selections in written order; records fragment spreads with
    /// ``noteSpread(_:)``.
    ///
    /// Nested sets are walked without recursion: the set being written is held in `current`, and
    /// the enclosing ones wait on ``selectionStack`` (pushed only when descending).
    mutating func selectionSet(_ set: SelectionSet) {
        guard !set.selections.isEmpty else { return }
        let base = selectionStack.count
        var current = set.selections
        var index = 0
        out.byte(0x7B)
        while true {
            if index == current.count {
                out.byte(0x7D)
                guard selectionStack.count > base, let parent = selectionStack.popLast() else { return }
                current = parent.selections
                index = parent.index
                continue
            }
            // Read in place: binding the element of a borrowed buffer copies none of its strings and arrays.
            let child = current.withUnsafeBufferPointer { selections in writeSelection(selections[index]) }
            index += 1
            if let child {
                out.byte(0x7B)
                selectionStack.append(SelectionFrame(selections: current, index: index))
                current = child
                index = 0
            }
        }
    }

    /// Writes one selection without its selection set; returns the selections of that set, if any.
    @inline(__always)
    private mutating func writeSelection(_ selection: borrowing Selection) -> [Selection]? {
        switch selection {
        case .field(let field):
            if let alias = field.alias {
                name(alias.value)
                out.byte(0x3A)
            }
            name(field.name.value)
            if !field.arguments.isEmpty { arguments(field.arguments) }
            if !field.directives.isEmpty { directives(field.directives) }
            if let set = field.selectionSet, !set.selections.isEmpty { return set.selections }
            return nil
        case .fragmentSpread(let spread):
            out.ascii("...")
            out.text(spread.name.value)
            if !spread.directives.isEmpty { directives(spread.directives) }
            noteSpread(spread.name.value)
            return nil
        case .inlineFragment(let fragment):
            out.ascii("...")
            if let condition = fragment.typeCondition {
                out.ascii("on ")
                out.text(condition.name.value)
            }
            if !fragment.directives.isEmpty { directives(fragment.directives) }
            return fragment.selectionSet.selections.isEmpty ? nil : fragment.selectionSet.selections
        }
    }

    /// Writes a value compactly, input object fields sorted by name, strings quoted; lists and
    /// objects are walked with ``valueStack``.
    mutating func value(_ root: Value) {
        let base = valueStack.count
        var next = root
        walk: while true {
            switch next {
            case .variable(let node):
                out.byte(0x24)
                out.text(node.name.value)
            case .int(let node): number(node.value)
            case .float(let node): number(node.value)
            case .string(let node): string(node.value)
            case .boolean(let node):
                if node.value { keyword("true") } else { keyword("false") }
            case .null: keyword("null")
            case .enum(let node): name(node.value)
            case .list(let node):
                out.byte(0x5B)
                valueStack.append(.list(node.values, 0))
            case .object(let node):
                out.byte(0x7B)
                let fields = node.fields
                let mark = pushOrder(fields.count) { fields[$0].name.value }
                valueStack.append(.object(fields, 0, order: mark))
            }
            while valueStack.count > base {
                let last = valueStack.count - 1
                switch valueStack[last] {
                case .list(let values, let index):
                    if index == values.count {
                        out.byte(0x5D)
                        valueStack.removeLast()
                        continue
                    }
                    valueStack[last] = .list(values, index + 1)
                    next = values[index]
                    continue walk
                case .object(let fields, let index, let mark):
                    if index == fields.count {
                        out.byte(0x7D)
                        valueStack.removeLast()
                        popOrder(mark)
                        continue
                    }
                    valueStack[last] = .object(fields, index + 1, order: mark)
                    let field = fields[mark < 0 ? index : order[mark + index]]
                    name(field.name.value)
                    out.byte(0x3A)
                    next = field.value
                    continue walk
                }
            }
            return
        }
    }
}
