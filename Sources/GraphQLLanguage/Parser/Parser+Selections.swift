/// A selection set that has been opened and not yet closed.
struct OpenSelectionSet {
    /// The offset of its `{`.
    var start: Int
    /// Where its selections begin on `selectionStack`.
    var base: Int
}

/// A field or inline fragment whose selection set is being parsed; completed when the set closes.
enum PendingSelection {
    case field(start: Int, alias: Name?, name: Name, arguments: [Argument], directives: [Directive])
    case inlineFragment(start: Int, typeCondition: NamedType?, directives: [Directive])
}

extension Parser {
    /// `SelectionSet := { Selection+ }`, with every selection set nested inside it.
    ///
    /// Nested selection sets do not recurse: open sets live on `openSets` and the fields and inline
    /// fragments that own them on `pendingSelections`, so the stack stays flat however deep the
    /// document nests (each level still counts against ``Limits/maxDepth``). Tokens are consumed in
    /// exactly the order of the grammar's recursive reading, so errors are the same:
    ///
    /// - `Selection := Field | FragmentSpread | InlineFragment`
    /// - `Field := Alias? Name Arguments? Directives? SelectionSet?`
    /// - `FragmentSpread := ... FragmentName Directives?`
    /// - `InlineFragment := ... TypeCondition? Directives? SelectionSet`
    mutating func parseSelectionSet() throws(ParseFailure) -> SelectionSet {
        let outerBase = openSets.count
        try openSelectionSet()
        while true {
            // A set that was just opened needs a first selection before it may close.
            if try parseSelection() { continue }
            // Close every set that ends here, completing the selections that own them.
            while try expectOptional(.braceRight) {
                leaveNesting()
                guard let open = openSets.popLast() else { throw unexpected(token) }
                let selectionSet = SelectionSet(
                    selections: selectionStack.popArray(from: open.base), range: range(from: open.start)
                )
                if openSets.count == outerBase { return selectionSet }
                switch pendingSelections.popLast() {
                case .field(let start, let alias, let name, let arguments, let directives):
                    let field = Field(
                        alias: alias, name: name, arguments: arguments, directives: directives,
                        selectionSet: selectionSet, range: range(from: start)
                    )
                    selectionStack.push(.field(field))
                case .inlineFragment(let start, let typeCondition, let directives):
                    let fragment = InlineFragment(
                        typeCondition: typeCondition, directives: directives, selectionSet: selectionSet,
                        range: range(from: start)
                    )
                    selectionStack.push(.inlineFragment(fragment))
                case nil:
                    throw unexpected(token)
                }
            }
        }
    }

    /// Consumes a `{` that opens a selection set (one level of nesting).
    private mutating func openSelectionSet() throws(ParseFailure) {
        let start = token.start
        guard token.kind == .braceLeft else { throw expectedFailure(.braceLeft) }
        try enterNesting(at: start)
        try advance()
        openSets.push(OpenSelectionSet(start: start, base: selectionStack.count))
    }

    /// Parses one selection into the innermost open set, or, when it has a selection set of its
    /// own, opens that set and leaves the selection pending.
    /// - Returns: Whether a new selection set was opened.
    private mutating func parseSelection() throws(ParseFailure) -> Bool {
        let start = token.start
        if token.kind == .spread {
            try advance()
            let hasTypeCondition = try expectOptionalKeyword(.on)
            if !hasTypeCondition, token.kind == .name {
                let name = try parseFragmentName()
                let directives = try parseDirectives(const: false)
                selectionStack.push(
                    .fragmentSpread(FragmentSpread(name: name, directives: directives, range: range(from: start)))
                )
                return false
            }
            let typeCondition = hasTypeCondition ? try parseNamedType() : nil
            let directives = try parseDirectives(const: false)
            try openSelectionSet()
            pendingSelections.push(.inlineFragment(start: start, typeCondition: typeCondition, directives: directives))
            return true
        }
        let nameOrAlias = try parseName()
        var alias: Name?
        let name: Name
        if try expectOptional(.colon) {
            alias = nameOrAlias
            name = try parseName()
        } else {
            name = nameOrAlias
        }
        let arguments = try parseArguments(const: false)
        let directives = try parseDirectives(const: false)
        if token.kind == .braceLeft {
            try openSelectionSet()
            pendingSelections.push(
                .field(start: start, alias: alias, name: name, arguments: arguments, directives: directives)
            )
            return true
        }
        let field = Field(
            alias: alias, name: name, arguments: arguments, directives: directives, range: range(from: start))
        selectionStack.push(.field(field))
        return false
    }
}
