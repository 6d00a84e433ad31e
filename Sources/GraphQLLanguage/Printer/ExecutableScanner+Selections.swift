extension ExecutableScanner {
    /// `SelectionSet := { Selection+ }` with every set nested inside it, read with a count of the
    /// open sets instead of recursion, in the order of `Parser.parseSelectionSet`:
    ///
    /// - `Field := Alias? Name Arguments? Directives? SelectionSet?`
    /// - `FragmentSpread := ... FragmentName Directives?` (the name is recorded in ``spreads``)
    /// - `InlineFragment := ... TypeCondition? Directives? SelectionSet`
    mutating func scanSelectionSet() throws(ParseFailure) {
        guard token.kind == .braceLeft else { throw refusal() }
        try enterNesting()
        try advance()
        var open = 1
        while true {
            // A set that was just opened needs a first selection before it may close.
            var opensSet = false
            if token.kind == .spread {
                try advance()
                if lexer.keyword(of: token) == .on {
                    try advance()
                    try expect(.name)
                    opensSet = true
                } else if token.kind == .name {
                    spreads.append(current)
                    try advance()
                } else {
                    opensSet = true
                }
                try scanDirectives(const: false)
            } else {
                try expect(.name)
                if token.kind == .colon {
                    try advance()
                    try expect(.name)
                }
                if token.kind == .parenLeft { try scanArguments(const: false) }
                try scanDirectives(const: false)
                opensSet = token.kind == .braceLeft
            }
            if opensSet {
                guard token.kind == .braceLeft else { throw refusal() }
                try enterNesting()
                try advance()
                open += 1
                continue
            }
            // Close every set that ends here.
            while token.kind == .braceRight {
                try advance()
                depth -= 1
                open -= 1
                if open == 0 { return }
            }
        }
    }

    /// `Value[Const]` with everything nested inside it, read with a stack of the open lists and
    /// objects instead of recursion, in the order of `Parser.parseValue`:
    ///
    /// - `ListValue := [ ] | [ Value+ ]`
    /// - `ObjectValue := { } | { ObjectField+ }`, `ObjectField := Name : Value`
    mutating func scanValue(const: Bool) throws(ParseFailure) {
        guard token.kind == .bracketLeft || token.kind == .braceLeft else {
            try scanScalarValue(const: const)
            return
        }
        let base = openValues.count
        while true {
            // At the start of a value: open a list or object, or read a scalar.
            if token.kind == .bracketLeft || token.kind == .braceLeft {
                let isList = token.kind == .bracketLeft
                try enterNesting()
                if !isList { mark(ScannedToken.opensSortedList) }
                try advance()
                openValues.append(isList ? 1 : 0)
            } else {
                try scanScalarValue(const: const)
            }
            // Close the lists and objects that end here, then move to the start of the next value.
            while true {
                if openValues.count == base { return }
                if openValues.last == 1 {
                    guard token.kind == .bracketRight else { break }
                } else {
                    guard token.kind == .braceRight else {
                        guard token.kind == .name else { throw refusal() }
                        mark(ScannedToken.startsMember)
                        try advance()
                        try expect(.colon)
                        break
                    }
                    mark(ScannedToken.closesSortedList)
                }
                try advance()
                depth -= 1
                openValues.truncate(to: openValues.count - 1)
            }
        }
    }

    /// A value that is neither a list nor an object; a variable only when not `const`.
    @inline(__always)
    mutating func scanScalarValue(const: Bool) throws(ParseFailure) {
        switch token.kind {
        case .int, .float, .string, .blockString, .name:
            try advance()
        case .dollar:
            guard !const else { throw refusal() }
            try advance()
            try expect(.name)
        default:
            throw refusal()
        }
    }
}
