extension Parser {
    /// `Value[Const]`: a variable (only when not `const`), an int, float, string, boolean, null or
    /// enum value, a list or an object.
    mutating func parseValue(const: Bool) throws(ParseFailure) -> Value {
        let current = token
        switch current.kind {
        case .bracketLeft:
            return .list(try parseList(const: const))
        case .braceLeft:
            return .object(try parseObject(const: const))
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
            if isKeyword(current, "true") { return .boolean(BooleanValue(true, range: range)) }
            if isKeyword(current, "false") { return .boolean(BooleanValue(false, range: range)) }
            if isKeyword(current, "null") { return .null(NullValue(range: range)) }
            return .enum(EnumValue(lexer.text(of: current), range: range))
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

    /// `ListValue := [ ] | [ Value+ ]` (one level of nesting).
    mutating func parseList(const: Bool) throws(ParseFailure) -> ListValue {
        let start = token.start
        try enterNesting(at: start)
        try advance()
        var values: [Value] = []
        while try !expectOptional(.bracketRight) {
            values.append(try parseValue(const: const))
        }
        leaveNesting()
        return ListValue(values, range: range(from: start))
    }

    /// `ObjectValue := { } | { ObjectField+ }` (one level of nesting).
    mutating func parseObject(const: Bool) throws(ParseFailure) -> ObjectValue {
        let start = token.start
        try enterNesting(at: start)
        try advance()
        var fields: [ObjectField] = []
        while try !expectOptional(.braceRight) {
            let fieldStart = token.start
            let name = try parseName()
            try expect(.colon)
            let value = try parseValue(const: const)
            fields.append(ObjectField(name: name, value: value, range: range(from: fieldStart)))
        }
        leaveNesting()
        return ObjectValue(fields, range: range(from: start))
    }

    /// `StringValue`, quoted or block; the current token must be one.
    mutating func parseStringLiteral() throws(ParseFailure) -> StringValue {
        let current = token
        try advance()
        let isBlock = current.kind == .blockString
        let value = isBlock ? lexer.blockStringValue(of: current) : lexer.stringValue(of: current)
        return StringValue(value, block: isBlock, range: SourceRange(start: current.start, end: current.end))
    }

    /// `Type := NamedType | ListType | NonNullType` (each `[` one level of nesting).
    mutating func parseTypeReference() throws(ParseFailure) -> TypeReference {
        let start = token.start
        let type: TypeReference
        if token.kind == .bracketLeft {
            try enterNesting(at: start)
            try advance()
            let element = try parseTypeReference()
            try expect(.bracketRight)
            leaveNesting()
            type = .list(ListType(type: element, range: range(from: start)))
        } else {
            type = .named(try parseNamedType())
        }
        if try expectOptional(.bang) {
            return .nonNull(NonNullType(type: type, range: range(from: start)))
        }
        return type
    }
}
