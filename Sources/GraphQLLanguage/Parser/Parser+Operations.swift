extension Parser {
    /// `Definition := ExecutableDefinition | TypeSystemDefinition | TypeSystemExtension`
    mutating func parseDefinition() throws(ParseFailure) -> Definition {
        if token.kind == .braceLeft { return .operation(try parseOperationDefinition()) }
        let hasDescription = token.kind == .string || token.kind == .blockString
        let keywordToken = hasDescription ? try lookahead() : token
        let found = keyword(of: keywordToken)
        switch found {
        case .type: return .type(.object(try parseObjectTypeDefinition()))
        case .input: return .type(.inputObject(try parseInputObjectTypeDefinition()))
        case .enum: return .type(.enum(try parseEnumTypeDefinition()))
        case .scalar: return .type(.scalar(try parseScalarTypeDefinition()))
        case .interface: return .type(.interface(try parseInterfaceTypeDefinition()))
        case .union: return .type(.union(try parseUnionTypeDefinition()))
        case .schema: return .schema(try parseSchemaDefinition())
        case .directive: return .directive(try parseDirectiveDefinition())
        default: break
        }
        if hasDescription, keywordToken.kind == .name { throw descriptionFailure() }
        switch found {
        case .query, .mutation, .subscription: return .operation(try parseOperationDefinition())
        case .fragment: return .fragment(try parseFragmentDefinition())
        case .extend: return try parseTypeSystemExtension()
        default: throw unexpected(keywordToken)
        }
    }

    @inline(never)
    mutating func descriptionFailure() -> ParseFailure {
        ParseFailure("Unexpected description, descriptions are supported only on type definitions.", at: token.start)
    }

    /// `OperationDefinition := SelectionSet | OperationType Name? VariableDefinitions? Directives? SelectionSet`
    mutating func parseOperationDefinition() throws(ParseFailure) -> OperationDefinition {
        let start = token.start
        if token.kind == .braceLeft {
            let selectionSet = try parseSelectionSet()
            return OperationDefinition(operation: .query, selectionSet: selectionSet, range: range(from: start))
        }
        let operation = try parseOperationType()
        let name = token.kind == .name ? try parseName() : nil
        let variableDefinitions = try parseVariableDefinitions()
        let directives = try parseDirectives(const: false)
        let selectionSet = try parseSelectionSet()
        return OperationDefinition(
            operation: operation, name: name, variableDefinitions: variableDefinitions, directives: directives,
            selectionSet: selectionSet, range: range(from: start)
        )
    }

    /// `OperationType := query | mutation | subscription`
    mutating func parseOperationType() throws(ParseFailure) -> OperationType {
        let operationToken = try expect(.name)
        switch keyword(of: operationToken) {
        case .query: return .query
        case .mutation: return .mutation
        case .subscription: return .subscription
        default: throw unexpected(operationToken)
        }
    }

    /// `VariableDefinitions := ( VariableDefinition+ )`, or nothing.
    @inline(never)
    mutating func parseVariableDefinitions() throws(ParseFailure) -> [VariableDefinition] {
        guard try expectOptional(.parenLeft) else { return [] }
        let base = variableDefinitionStack.count
        repeat {
            variableDefinitionStack.push(try parseVariableDefinition())
        } while try !expectOptional(.parenRight)
        return variableDefinitionStack.popArray(from: base)
    }

    /// `VariableDefinition := Variable : Type DefaultValue? Directives[Const]?`
    mutating func parseVariableDefinition() throws(ParseFailure) -> VariableDefinition {
        let start = token.start
        let variable = try parseVariable()
        try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue = try expectOptional(.equals) ? try parseValue(const: true) : nil
        let directives = try parseDirectives(const: true)
        return VariableDefinition(
            variable: variable, type: type, defaultValue: defaultValue, directives: directives,
            range: range(from: start)
        )
    }

    /// `Variable := $ Name`
    @inline(__always)
    mutating func parseVariable() throws(ParseFailure) -> Variable {
        let start = token.start
        try expect(.dollar)
        let name = try parseName()
        return Variable(name: name, range: range(from: start))
    }

    /// `Arguments := ( Argument+ )`, or nothing.
    mutating func parseArguments(const: Bool) throws(ParseFailure) -> [Argument] {
        guard try expectOptional(.parenLeft) else { return [] }
        let base = argumentStack.count
        repeat {
            let start = token.start
            let name = try parseName()
            try expect(.colon)
            let value = try parseValue(const: const)
            argumentStack.push(Argument(name: name, value: value, range: range(from: start)))
        } while try !expectOptional(.parenRight)
        return argumentStack.popArray(from: base)
    }

    /// `FragmentDefinition := fragment FragmentName TypeCondition Directives? SelectionSet`
    mutating func parseFragmentDefinition() throws(ParseFailure) -> FragmentDefinition {
        let start = token.start
        try expectKeyword(.fragment)
        let name = try parseFragmentName()
        try expectKeyword(.on)
        let typeCondition = try parseNamedType()
        let directives = try parseDirectives(const: false)
        let selectionSet = try parseSelectionSet()
        return FragmentDefinition(
            name: name, typeCondition: typeCondition, directives: directives, selectionSet: selectionSet,
            range: range(from: start)
        )
    }

    /// `FragmentName := Name but not on`
    mutating func parseFragmentName() throws(ParseFailure) -> Name {
        // graphql-js compares the token's value, so a string "on" is rejected the same way.
        if keyword(of: token) == .on
            || (token.kind == .string || token.kind == .blockString) && value(of: token) == "on"
        {
            throw unexpected(token)
        }
        return try parseName()
    }

    /// `Name`
    @inline(__always)
    mutating func parseName() throws(ParseFailure) -> Name {
        let nameToken = try expect(.name)
        return Name(nameText(nameToken), range: SourceRange(start: nameToken.start, end: nameToken.end))
    }

    /// `NamedType := Name`
    @inline(__always)
    mutating func parseNamedType() throws(ParseFailure) -> NamedType {
        let name = try parseName()
        return NamedType(name: name, range: name.range)
    }

    /// `Directives := Directive+`, or nothing; `Directive := @ Name Arguments?`
    mutating func parseDirectives(const: Bool) throws(ParseFailure) -> [Directive] {
        guard token.kind == .at else { return [] }
        let base = directiveStack.count
        repeat {
            let start = token.start
            try advance()
            let name = try parseName()
            let arguments = try parseArguments(const: const)
            directiveStack.push(Directive(name: name, arguments: arguments, range: range(from: start)))
        } while token.kind == .at
        return directiveStack.popArray(from: base)
    }
}
