extension Parser {
    /// `Value[Const]`: a variable (only when not `const`), an int, float, string, boolean, null or
    /// enum value, a list or an object, with everything nested inside it.
    ///
    /// Nested lists and objects do not recurse: open ones live on `openValues`, each object with
    /// the name of the field whose value is being read, so the stack stays flat however deep the
    /// value nests (each level still counts against ``Limits/maxDepth``). Tokens are
    /// consumed in the order of the grammar's recursive reading, so errors are the same:
    ///
    /// - `ListValue := [ ] | [ Value+ ]`
    /// - `ObjectValue := { } | { ObjectField+ }`, `ObjectField := Name : Value`
    mutating func parseValue(const: Bool) throws(ParseFailure) -> Value {
        guard token.kind == .bracketLeft || token.kind == .braceLeft else { return try parseScalarValue(const: const) }
        let outerBase = openValues.count
        while true {
            // At the start of a value: open a list or object, or read a scalar and complete it.
            var completed: Value
            if token.kind == .bracketLeft || token.kind == .braceLeft {
                let start = token.start
                let isList = token.kind == .bracketLeft
                try enterNesting(at: start)
                try advance()
                openValues.push(
                    OpenValue(isList: isList, start: start, base: isList ? valueStack.count : objectFieldStack.count)
                )
                guard let value = try closeOrBeginMember() else { continue }
                completed = value
            } else {
                completed = try parseScalarValue(const: const)
            }
            // Hand the completed value to the innermost open list or object, closing those that end.
            while true {
                if openValues.count == outerBase { return completed }
                guard let open = openValues.last() else { throw unexpected(token) }
                if open.isList {
                    valueStack.push(completed)
                } else {
                    guard let name = open.fieldName else { throw unexpected(token) }
                    objectFieldStack.push(
                        ObjectField(name: name, value: completed, range: range(from: open.fieldStart)))
                }
                guard let value = try closeOrBeginMember() else { break }
                completed = value
            }
        }
    }

    /// In the innermost open list or object: closes it if the next token is its closing bracket and
    /// returns the finished value; otherwise reads what precedes the next member (an object field's
    /// `Name :`) and returns `nil`, leaving the member's value to be parsed.
    private mutating func closeOrBeginMember() throws(ParseFailure) -> Value? {
        guard let open = openValues.last() else { throw unexpected(token) }
        if open.isList {
            guard try expectOptional(.bracketRight) else { return nil }
            leaveNesting()
            _ = openValues.popLast()
            return .list(ListValue(valueStack.popArray(from: open.base), range: range(from: open.start)))
        }
        if try expectOptional(.braceRight) {
            leaveNesting()
            _ = openValues.popLast()
            return .object(ObjectValue(objectFieldStack.popArray(from: open.base), range: range(from: open.start)))
        }
        let fieldStart = token.start
        let name = try parseName()
        try expect(.colon)
        openValues.modifyLast { open in
            open.fieldStart = fieldStart
            open.fieldName = name
        }
        return nil
    }

    /// A value that is neither a list nor an object.
    @inline(never)
    mutating func parseScalarValue(const: Bool) throws(ParseFailure) -> Value {
        let current = token
        switch current.kind {
        case .int:
            try advance()
            return .int(IntValue(lexer.text(of: current), range: SourceRange(start: current.start, end: current.end)))
        case .float:
            try advance()
            return .float(
                FloatValue(lexer.text(of: current), range: SourceRange(start: current.start, end: current.end))
            )
        case .string, .blockString:
            return .string(try parseStringLiteral())
        case .name:
            try advance()
            let range = SourceRange(start: current.start, end: current.end)
            switch keyword(of: current) {
            case .true: return .boolean(BooleanValue(true, range: range))
            case .false: return .boolean(BooleanValue(false, range: range))
            case .null: return .null(NullValue(range: range))
            default: return .enum(EnumValue(nameText(current), range: range))
            }
        case .dollar:
            guard const else { return .variable(try parseVariable()) }
            try advance()
            if token.kind == .name {
                throw ParseFailure(
                    "Unexpected variable \"$\(lexer.text(of: token))\" in constant value.", at: current.start
                )
            }
            throw unexpected(current)
        default:
            throw unexpected(current)
        }
    }

    /// `StringValue`, quoted or block; the current token must be one.
    @inline(never)
    mutating func parseStringLiteral() throws(ParseFailure) -> StringValue {
        let current = token
        try advance()
        let isBlock = current.kind == .blockString
        let value = isBlock ? lexer.blockStringValue(of: current) : lexer.stringValue(of: current)
        return StringValue(value, block: isBlock, range: SourceRange(start: current.start, end: current.end))
    }

    /// `Type := NamedType | ListType | NonNullType`, read without recursion: the offsets of the
    /// open `[`s wait on `openBrackets` (each one level of nesting) while the named type in the
    /// middle is read, then every level is closed with its `]` and optional `!`.
    mutating func parseTypeReference() throws(ParseFailure) -> TypeReference {
        let outerBase = openBrackets.count
        while token.kind == .bracketLeft {
            try enterNesting(at: token.start)
            openBrackets.push(token.start)
            try advance()
        }
        let named = try parseNamedType()
        var type = TypeReference.named(named)
        if try expectOptional(.bang) {
            type = .nonNull(NonNullType(type: type, range: range(from: named.range.start)))
        }
        while openBrackets.count > outerBase {
            guard let start = openBrackets.popLast() else { break }
            try expect(.bracketRight)
            leaveNesting()
            type = .list(ListType(type: type, range: range(from: start)))
            if try expectOptional(.bang) {
                type = .nonNull(NonNullType(type: type, range: range(from: start)))
            }
        }
        return type
    }
}

/// A list or object value that has been opened and not yet closed.
struct OpenValue {
    /// Whether it is a list (else an object).
    var isList: Bool
    /// The offset of its `[` or `{`.
    var start: Int
    /// Where its members begin on `valueStack` (lists) or `objectFieldStack` (objects).
    var base: Int
    /// For objects: where the field whose value is being read starts.
    var fieldStart = 0
    /// For objects: the name of the field whose value is being read.
    var fieldName: Name?
}
