extension Parser {
    /// `Description := StringValue`, or nothing.
    mutating func parseDescription() throws(ParseFailure) -> StringValue? {
        guard token.kind == .string || token.kind == .blockString else { return nil }
        return try parseStringLiteral()
    }

    /// `SchemaDefinition := Description? schema Directives[Const]? { RootOperationTypeDefinition+ }`
    mutating func parseSchemaDefinition() throws(ParseFailure) -> SchemaDefinition {
        let start = token.start
        let description = try parseDescription()
        try expectKeyword(.schema)
        let directives = try parseDirectives(const: true)
        try expect(.braceLeft)
        var operationTypes: [OperationTypeDefinition] = []
        repeat {
            operationTypes.append(try parseOperationTypeDefinition())
        } while try !expectOptional(.braceRight)
        return SchemaDefinition(
            description: description, directives: directives, operationTypes: operationTypes,
            range: range(from: start)
        )
    }

    /// `RootOperationTypeDefinition := OperationType : NamedType`
    mutating func parseOperationTypeDefinition() throws(ParseFailure) -> OperationTypeDefinition {
        let start = token.start
        let operation = try parseOperationType()
        try expect(.colon)
        let type = try parseNamedType()
        return OperationTypeDefinition(operation: operation, type: type, range: range(from: start))
    }

    /// `ScalarTypeDefinition := Description? scalar Name Directives[Const]?`
    mutating func parseScalarTypeDefinition() throws(ParseFailure) -> ScalarTypeDefinition {
        let start = token.start
        let description = try parseDescription()
        try expectKeyword(.scalar)
        let name = try parseName()
        let directives = try parseDirectives(const: true)
        return ScalarTypeDefinition(
            description: description, name: name, directives: directives, range: range(from: start))
    }

    /// `ObjectTypeDefinition := Description? type Name ImplementsInterfaces? Directives[Const]? FieldsDefinition?`
    mutating func parseObjectTypeDefinition() throws(ParseFailure) -> ObjectTypeDefinition {
        let start = token.start
        let description = try parseDescription()
        try expectKeyword(.type)
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(const: true)
        let fields = try parseFieldsDefinition()
        return ObjectTypeDefinition(
            description: description, name: name, interfaces: interfaces, directives: directives, fields: fields,
            range: range(from: start)
        )
    }

    /// `InterfaceTypeDefinition :=`
    /// `Description? interface Name ImplementsInterfaces? Directives[Const]? FieldsDefinition?`
    mutating func parseInterfaceTypeDefinition() throws(ParseFailure) -> InterfaceTypeDefinition {
        let start = token.start
        let description = try parseDescription()
        try expectKeyword(.interface)
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(const: true)
        let fields = try parseFieldsDefinition()
        return InterfaceTypeDefinition(
            description: description, name: name, interfaces: interfaces, directives: directives, fields: fields,
            range: range(from: start)
        )
    }

    /// `ImplementsInterfaces := implements &? NamedType (& NamedType)*`, or nothing.
    mutating func parseImplementsInterfaces() throws(ParseFailure) -> [NamedType] {
        guard try expectOptionalKeyword(.implements) else { return [] }
        return try parseDelimitedNamedTypes(.ampersand)
    }

    /// `delimiter? NamedType (delimiter NamedType)*`
    mutating func parseDelimitedNamedTypes(_ delimiter: TokenKind) throws(ParseFailure) -> [NamedType] {
        _ = try expectOptional(delimiter)
        let base = namedTypeStack.count
        repeat {
            namedTypeStack.push(try parseNamedType())
        } while try expectOptional(delimiter)
        return namedTypeStack.popArray(from: base)
    }

    /// `FieldsDefinition := { FieldDefinition+ }`, or nothing.
    mutating func parseFieldsDefinition() throws(ParseFailure) -> [FieldDefinition] {
        guard try expectOptional(.braceLeft) else { return [] }
        let base = fieldDefinitionStack.count
        repeat {
            let start = token.start
            let description = try parseDescription()
            let name = try parseName()
            let arguments = try parseArgumentDefinitions()
            try expect(.colon)
            let type = try parseTypeReference()
            let directives = try parseDirectives(const: true)
            fieldDefinitionStack.push(
                FieldDefinition(
                    description: description, name: name, arguments: arguments, type: type, directives: directives,
                    range: range(from: start)
                )
            )
        } while try !expectOptional(.braceRight)
        return fieldDefinitionStack.popArray(from: base)
    }

    /// `ArgumentsDefinition := ( InputValueDefinition+ )`, or nothing.
    mutating func parseArgumentDefinitions() throws(ParseFailure) -> [InputValueDefinition] {
        guard try expectOptional(.parenLeft) else { return [] }
        let base = inputValueStack.count
        repeat {
            inputValueStack.push(try parseInputValueDefinition())
        } while try !expectOptional(.parenRight)
        return inputValueStack.popArray(from: base)
    }

    /// `InputValueDefinition := Description? Name : Type DefaultValue? Directives[Const]?`
    mutating func parseInputValueDefinition() throws(ParseFailure) -> InputValueDefinition {
        let start = token.start
        let description = try parseDescription()
        let name = try parseName()
        try expect(.colon)
        let type = try parseTypeReference()
        let defaultValue = try expectOptional(.equals) ? try parseValue(const: true) : nil
        let directives = try parseDirectives(const: true)
        return InputValueDefinition(
            description: description, name: name, type: type, defaultValue: defaultValue, directives: directives,
            range: range(from: start)
        )
    }

    /// `UnionTypeDefinition := Description? union Name Directives[Const]? UnionMemberTypes?`
    mutating func parseUnionTypeDefinition() throws(ParseFailure) -> UnionTypeDefinition {
        let start = token.start
        let description = try parseDescription()
        try expectKeyword(.union)
        let name = try parseName()
        let directives = try parseDirectives(const: true)
        let types = try parseUnionMemberTypes()
        return UnionTypeDefinition(
            description: description, name: name, directives: directives, types: types, range: range(from: start)
        )
    }

    /// `UnionMemberTypes := = |? NamedType (| NamedType)*`, or nothing.
    mutating func parseUnionMemberTypes() throws(ParseFailure) -> [NamedType] {
        guard try expectOptional(.equals) else { return [] }
        return try parseDelimitedNamedTypes(.pipe)
    }

    /// `EnumTypeDefinition := Description? enum Name Directives[Const]? EnumValuesDefinition?`
    mutating func parseEnumTypeDefinition() throws(ParseFailure) -> EnumTypeDefinition {
        let start = token.start
        let description = try parseDescription()
        try expectKeyword(.enum)
        let name = try parseName()
        let directives = try parseDirectives(const: true)
        let values = try parseEnumValuesDefinition()
        return EnumTypeDefinition(
            description: description, name: name, directives: directives, values: values, range: range(from: start)
        )
    }

    /// `EnumValuesDefinition := { EnumValueDefinition+ }`, or nothing.
    mutating func parseEnumValuesDefinition() throws(ParseFailure) -> [EnumValueDefinition] {
        guard try expectOptional(.braceLeft) else { return [] }
        let base = enumValueStack.count
        repeat {
            let start = token.start
            let description = try parseDescription()
            let reserved = keyword(of: token)
            if reserved == .true || reserved == .false || reserved == .null
                || (token.kind == .string || token.kind == .blockString)
                    && ["true", "false", "null"].contains(value(of: token) ?? "")
            {
                throw ParseFailure(
                    "\(describe(token)) is reserved and cannot be used for an enum value.", at: token.start
                )
            }
            let name = try parseName()
            let directives = try parseDirectives(const: true)
            enumValueStack.push(
                EnumValueDefinition(
                    description: description, name: name, directives: directives, range: range(from: start))
            )
        } while try !expectOptional(.braceRight)
        return enumValueStack.popArray(from: base)
    }

    /// `InputObjectTypeDefinition := Description? input Name Directives[Const]? InputFieldsDefinition?`
    mutating func parseInputObjectTypeDefinition() throws(ParseFailure) -> InputObjectTypeDefinition {
        let start = token.start
        let description = try parseDescription()
        try expectKeyword(.input)
        let name = try parseName()
        let directives = try parseDirectives(const: true)
        let fields = try parseInputFieldsDefinition()
        return InputObjectTypeDefinition(
            description: description, name: name, directives: directives, fields: fields, range: range(from: start)
        )
    }

    /// `InputFieldsDefinition := { InputValueDefinition+ }`, or nothing.
    mutating func parseInputFieldsDefinition() throws(ParseFailure) -> [InputValueDefinition] {
        guard try expectOptional(.braceLeft) else { return [] }
        let base = inputValueStack.count
        repeat {
            inputValueStack.push(try parseInputValueDefinition())
        } while try !expectOptional(.braceRight)
        return inputValueStack.popArray(from: base)
    }

    /// `DirectiveDefinition := Description? directive @ Name ArgumentsDefinition? repeatable? on DirectiveLocations`
    mutating func parseDirectiveDefinition() throws(ParseFailure) -> DirectiveDefinition {
        let start = token.start
        let description = try parseDescription()
        try expectKeyword(.directive)
        try expect(.at)
        let name = try parseName()
        let arguments = try parseArgumentDefinitions()
        let repeatable = try expectOptionalKeyword(.repeatable)
        try expectKeyword(.on)
        _ = try expectOptional(.pipe)
        var locations: [Name] = []
        repeat {
            let locationToken = token
            let location = try parseName()
            guard DirectiveLocation(rawValue: location.value) != nil else { throw unexpected(locationToken) }
            locations.append(location)
        } while try expectOptional(.pipe)
        return DirectiveDefinition(
            description: description, name: name, arguments: arguments, repeatable: repeatable,
            locations: locations, range: range(from: start)
        )
    }
}
