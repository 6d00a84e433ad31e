extension Parser {
    /// `Definition := ExecutableDefinition | TypeSystemDefinition | TypeSystemExtension`
    mutating func parseDefinition() throws(ParseFailure) -> Definition {
        if token.kind == .braceLeft { return .operation(try parseOperationDefinition()) }
        let hasDescription = token.kind == .string || token.kind == .blockString
        let keyword = hasDescription ? try lookahead() : token
        if keyword.kind == .name {
            if isKeyword(keyword, "type") { return .type(.object(try parseObjectTypeDefinition())) }
            if isKeyword(keyword, "input") { return .type(.inputObject(try parseInputObjectTypeDefinition())) }
            if isKeyword(keyword, "enum") { return .type(.enum(try parseEnumTypeDefinition())) }
            if isKeyword(keyword, "scalar") { return .type(.scalar(try parseScalarTypeDefinition())) }
            if isKeyword(keyword, "interface") { return .type(.interface(try parseInterfaceTypeDefinition())) }
            if isKeyword(keyword, "union") { return .type(.union(try parseUnionTypeDefinition())) }
            if isKeyword(keyword, "schema") { return .schema(try parseSchemaDefinition()) }
            if isKeyword(keyword, "directive") { return .directive(try parseDirectiveDefinition()) }
            if hasDescription {
                throw ParseFailure(
                    "Unexpected description, descriptions are supported only on type definitions.", at: token.start
                )
            }
            if isKeyword(keyword, "query") || isKeyword(keyword, "mutation") || isKeyword(keyword, "subscription") {
                return .operation(try parseOperationDefinition())
            }
            if isKeyword(keyword, "fragment") { return .fragment(try parseFragmentDefinition()) }
            if isKeyword(keyword, "extend") { return try parseTypeSystemExtension() }
        }
        throw unexpected(keyword)
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
        if isKeyword(operationToken, "query") { return .query }
        if isKeyword(operationToken, "mutation") { return .mutation }
        if isKeyword(operationToken, "subscription") { return .subscription }
        throw unexpected(operationToken)
    }

    /// `VariableDefinitions := ( VariableDefinition+ )`, or nothing.
    mutating func parseVariableDefinitions() throws(ParseFailure) -> [VariableDefinition] {
        guard try expectOptional(.parenLeft) else { return [] }
        var definitions: [VariableDefinition] = []
        repeat {
            definitions.append(try parseVariableDefinition())
        } while try !expectOptional(.parenRight)
        return definitions
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
    mutating func parseVariable() throws(ParseFailure) -> Variable {
        let start = token.start
        try expect(.dollar)
        let name = try parseName()
        return Variable(name: name, range: range(from: start))
    }

    /// `SelectionSet := { Selection+ }` (one level of nesting).
    mutating func parseSelectionSet() throws(ParseFailure) -> SelectionSet {
        let start = token.start
        guard token.kind == .braceLeft else {
            throw ParseFailure("Expected \(TokenKind.braceLeft.description), found \(describe(token)).", at: start)
        }
        try enterNesting(at: start)
        try advance()
        var selections: [Selection] = []
        repeat {
            if token.kind == .spread {
                selections.append(try parseFragment())
            } else {
                selections.append(.field(try parseField()))
            }
        } while try !expectOptional(.braceRight)
        leaveNesting()
        return SelectionSet(selections: selections, range: range(from: start))
    }

    /// `Field := Alias? Name Arguments? Directives? SelectionSet?`
    mutating func parseField() throws(ParseFailure) -> Field {
        let start = token.start
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
        let selectionSet = token.kind == .braceLeft ? try parseSelectionSet() : nil
        return Field(
            alias: alias, name: name, arguments: arguments, directives: directives, selectionSet: selectionSet,
            range: range(from: start)
        )
    }

    /// `Arguments := ( Argument+ )`, or nothing.
    mutating func parseArguments(const: Bool) throws(ParseFailure) -> [Argument] {
        guard try expectOptional(.parenLeft) else { return [] }
        var arguments: [Argument] = []
        repeat {
            let start = token.start
            let name = try parseName()
            try expect(.colon)
            let value = try parseValue(const: const)
            arguments.append(Argument(name: name, value: value, range: range(from: start)))
        } while try !expectOptional(.parenRight)
        return arguments
    }

    /// `FragmentSpread := ... FragmentName Directives?` or
    /// `InlineFragment := ... TypeCondition? Directives? SelectionSet`
    mutating func parseFragment() throws(ParseFailure) -> Selection {
        let start = token.start
        try expect(.spread)
        let hasTypeCondition = try expectOptionalKeyword("on")
        if !hasTypeCondition, token.kind == .name {
            let name = try parseFragmentName()
            let directives = try parseDirectives(const: false)
            return .fragmentSpread(FragmentSpread(name: name, directives: directives, range: range(from: start)))
        }
        let typeCondition = hasTypeCondition ? try parseNamedType() : nil
        let directives = try parseDirectives(const: false)
        let selectionSet = try parseSelectionSet()
        return .inlineFragment(
            InlineFragment(
                typeCondition: typeCondition, directives: directives, selectionSet: selectionSet,
                range: range(from: start)
            )
        )
    }

    /// `FragmentDefinition := fragment FragmentName TypeCondition Directives? SelectionSet`
    mutating func parseFragmentDefinition() throws(ParseFailure) -> FragmentDefinition {
        let start = token.start
        try expectKeyword("fragment")
        let name = try parseFragmentName()
        try expectKeyword("on")
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
        if isKeyword(token, "on") || (token.kind == .string || token.kind == .blockString) && value(of: token) == "on" {
            throw unexpected(token)
        }
        return try parseName()
    }

    /// `Name`
    @inline(__always)
    mutating func parseName() throws(ParseFailure) -> Name {
        let nameToken = try expect(.name)
        return Name(lexer.text(of: nameToken), range: SourceRange(start: nameToken.start, end: nameToken.end))
    }

    /// `NamedType := Name`
    mutating func parseNamedType() throws(ParseFailure) -> NamedType {
        let name = try parseName()
        return NamedType(name: name, range: name.range)
    }

    /// `Directives := Directive+`, or nothing; `Directive := @ Name Arguments?`
    mutating func parseDirectives(const: Bool) throws(ParseFailure) -> [Directive] {
        guard token.kind == .at else { return [] }
        var directives: [Directive] = []
        repeat {
            let start = token.start
            try advance()
            let name = try parseName()
            let arguments = try parseArguments(const: const)
            directives.append(Directive(name: name, arguments: arguments, range: range(from: start)))
        } while token.kind == .at
        return directives
    }
}
