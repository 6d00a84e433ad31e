/// One selection set being printed: its selections and the next one to print.
struct SelectionFrame {
    var selections: [Selection]
    var index: Int
}

/// One list or object value being printed and the next member to print.
enum ValueFrame {
    case list([Value], Int)
    case object([ObjectField], Int)
}

extension PrettyWriter {
    /// graphql-js breaks a field's arguments onto separate lines past this many characters.
    static let maximumLineLength = 80

    /// Writes `{`, one selection per line, `}`; nothing for an empty set (graphql-js's `block`).
    ///
    /// Nested sets are kept on ``selectionStack`` instead of the call stack.
    mutating func selectionSet(_ set: SelectionSet) {
        guard !set.selections.isEmpty else { return }
        let base = selectionStack.count
        out.byte(0x7B)
        out.indentation += 2
        selectionStack.append(SelectionFrame(selections: set.selections, index: 0))
        while selectionStack.count > base {
            let last = selectionStack.count - 1
            let index = selectionStack[last].index
            if index == selectionStack[last].selections.count {
                selectionStack.removeLast()
                out.indentation -= 2
                out.lineBreak()
                out.byte(0x7D)
                continue
            }
            selectionStack[last].index = index + 1
            let selection = selectionStack[last].selections[index]
            out.lineBreak()
            switch selection {
            case .field(let field):
                fieldHead(field)
                if let child = field.selectionSet { open(child) }
            case .fragmentSpread(let spread):
                out.ascii("...")
                out.text(spread.name.value)
                directives(spread.directives)
            case .inlineFragment(let fragment):
                out.ascii("...")
                if let condition = fragment.typeCondition {
                    out.ascii(" on ")
                    out.text(condition.name.value)
                }
                directives(fragment.directives)
                open(fragment.selectionSet)
            }
        }
    }

    /// Opens a nested, non-empty selection set: ` {` and a frame for its selections.
    private mutating func open(_ set: SelectionSet) {
        guard !set.selections.isEmpty else { return }
        out.ascii(" {")
        out.indentation += 2
        selectionStack.append(SelectionFrame(selections: set.selections, index: 0))
    }

    /// Writes `alias: name(arguments) @directives`.
    ///
    /// The arguments go one per line when `alias: name(a: 1, b: 2)` would be longer than 80 UTF-16
    /// code units, counted without the line's indentation (graphql-js measures before indenting).
    mutating func fieldHead(_ field: Field) {
        let lineStart = out.count
        let breaksAtStart = out.lineBreaks
        if let alias = field.alias {
            out.text(alias.value)
            out.ascii(": ")
        }
        out.text(field.name.value)
        if !field.arguments.isEmpty {
            let argumentsStart = out.count
            argumentList(field.arguments)
            let breaks = out.lineBreaks - breaksAtStart
            if out.utf16Length(from: lineStart, lineBreaksSince: breaks) > Self.maximumLineLength {
                out.truncate(to: argumentsStart, lineBreaks: breaksAtStart)
                out.byte(0x28)
                out.indentation += 2
                for argument in field.arguments {
                    out.lineBreak()
                    out.text(argument.name.value)
                    out.ascii(": ")
                    value(argument.value)
                }
                out.indentation -= 2
                out.lineBreak()
                out.byte(0x29)
            }
        }
        directives(field.directives)
    }

    /// Writes a value; lists and objects are walked with ``valueStack`` instead of recursion.
    mutating func value(_ root: Value) {
        let base = valueStack.count
        var next = root
        walk: while true {
            switch next {
            case .variable(let node):
                out.byte(0x24)
                out.text(node.name.value)
            case .int(let node): out.text(node.value)
            case .float(let node): out.text(node.value)
            case .string(let node):
                if node.block { out.blockString(node.value) } else { out.quotedString(node.value) }
            case .boolean(let node):
                if node.value { out.ascii("true") } else { out.ascii("false") }
            case .null: out.ascii("null")
            case .enum(let node): out.text(node.value)
            case .list(let node):
                out.byte(0x5B)
                valueStack.append(.list(node.values, 0))
            case .object(let node):
                out.byte(0x7B)
                valueStack.append(.object(node.fields, 0))
            }
            // Find the next member to print, closing finished lists and objects.
            while valueStack.count > base {
                let last = valueStack.count - 1
                switch valueStack[last] {
                case .list(let values, let index):
                    if index == values.count {
                        out.byte(0x5D)
                        valueStack.removeLast()
                        continue
                    }
                    if index > 0 { out.ascii(", ") }
                    valueStack[last] = .list(values, index + 1)
                    next = values[index]
                    continue walk
                case .object(let fields, let index):
                    if index == fields.count {
                        out.byte(0x7D)
                        valueStack.removeLast()
                        continue
                    }
                    if index > 0 { out.ascii(", ") }
                    valueStack[last] = .object(fields, index + 1)
                    out.text(fields[index].name.value)
                    out.ascii(": ")
                    next = fields[index].value
                    continue walk
                }
            }
            return
        }
    }
}
