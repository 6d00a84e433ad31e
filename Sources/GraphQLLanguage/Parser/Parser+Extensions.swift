extension Parser {
    /// `TypeSystemExtension := SchemaExtension | TypeExtension`, starting at `extend`.
    mutating func parseTypeSystemExtension() throws(ParseFailure) -> Definition {
        let keywordToken = try lookahead()
        switch keyword(of: keywordToken) {
        case .type: return .typeExtension(.object(try parseObjectTypeExtension()))
        case .schema: return .schemaExtension(try parseSchemaExtension())
        case .scalar: return .typeExtension(.scalar(try parseScalarTypeExtension()))
        case .interface: return .typeExtension(.interface(try parseInterfaceTypeExtension()))
        case .union: return .typeExtension(.union(try parseUnionTypeExtension()))
        case .enum: return .typeExtension(.enum(try parseEnumTypeExtension()))
        case .input: return .typeExtension(.inputObject(try parseInputObjectTypeExtension()))
        default: throw unexpected(keywordToken)
        }
    }

    /// `SchemaExtension := extend schema Directives[Const]? { RootOperationTypeDefinition+ }`, not empty.
    mutating func parseSchemaExtension() throws(ParseFailure) -> SchemaExtension {
        let start = token.start
        try expectKeyword(.extend)
        try expectKeyword(.schema)
        let directives = try parseDirectives(const: true)
        var operationTypes: [OperationTypeDefinition] = []
        if try expectOptional(.braceLeft) {
            repeat {
                operationTypes.append(try parseOperationTypeDefinition())
            } while try !expectOptional(.braceRight)
        }
        if directives.isEmpty, operationTypes.isEmpty { throw unexpected(token) }
        return SchemaExtension(directives: directives, operationTypes: operationTypes, range: range(from: start))
    }

    /// `ScalarTypeExtension := extend scalar Name Directives[Const]`
    mutating func parseScalarTypeExtension() throws(ParseFailure) -> ScalarTypeExtension {
        let start = token.start
        try expectKeyword(.extend)
        try expectKeyword(.scalar)
        let name = try parseName()
        let directives = try parseDirectives(const: true)
        if directives.isEmpty { throw unexpected(token) }
        return ScalarTypeExtension(name: name, directives: directives, range: range(from: start))
    }

    /// `ObjectTypeExtension := extend type Name ImplementsInterfaces? Directives[Const]? FieldsDefinition?`, not empty.
    mutating func parseObjectTypeExtension() throws(ParseFailure) -> ObjectTypeExtension {
        let start = token.start
        try expectKeyword(.extend)
        try expectKeyword(.type)
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(const: true)
        let fields = try parseFieldsDefinition()
        if interfaces.isEmpty, directives.isEmpty, fields.isEmpty { throw unexpected(token) }
        return ObjectTypeExtension(
            name: name, interfaces: interfaces, directives: directives, fields: fields, range: range(from: start)
        )
    }

    /// `InterfaceTypeExtension := extend interface Name ImplementsInterfaces? Directives[Const]? FieldsDefinition?`,
    /// not empty.
    mutating func parseInterfaceTypeExtension() throws(ParseFailure) -> InterfaceTypeExtension {
        let start = token.start
        try expectKeyword(.extend)
        try expectKeyword(.interface)
        let name = try parseName()
        let interfaces = try parseImplementsInterfaces()
        let directives = try parseDirectives(const: true)
        let fields = try parseFieldsDefinition()
        if interfaces.isEmpty, directives.isEmpty, fields.isEmpty { throw unexpected(token) }
        return InterfaceTypeExtension(
            name: name, interfaces: interfaces, directives: directives, fields: fields, range: range(from: start)
        )
    }

    /// `UnionTypeExtension := extend union Name Directives[Const]? UnionMemberTypes?`, not empty.
    mutating func parseUnionTypeExtension() throws(ParseFailure) -> UnionTypeExtension {
        let start = token.start
        try expectKeyword(.extend)
        try expectKeyword(.union)
        let name = try parseName()
        let directives = try parseDirectives(const: true)
        let types = try parseUnionMemberTypes()
        if directives.isEmpty, types.isEmpty { throw unexpected(token) }
        return UnionTypeExtension(name: name, directives: directives, types: types, range: range(from: start))
    }

    /// `EnumTypeExtension := extend enum Name Directives[Const]? EnumValuesDefinition?`, not empty.
    mutating func parseEnumTypeExtension() throws(ParseFailure) -> EnumTypeExtension {
        let start = token.start
        try expectKeyword(.extend)
        try expectKeyword(.enum)
        let name = try parseName()
        let directives = try parseDirectives(const: true)
        let values = try parseEnumValuesDefinition()
        if directives.isEmpty, values.isEmpty { throw unexpected(token) }
        return EnumTypeExtension(name: name, directives: directives, values: values, range: range(from: start))
    }

    /// `InputObjectTypeExtension := extend input Name Directives[Const]? InputFieldsDefinition?`, not empty.
    mutating func parseInputObjectTypeExtension() throws(ParseFailure) -> InputObjectTypeExtension {
        let start = token.start
        try expectKeyword(.extend)
        try expectKeyword(.input)
        let name = try parseName()
        let directives = try parseDirectives(const: true)
        let fields = try parseInputFieldsDefinition()
        if directives.isEmpty, fields.isEmpty { throw unexpected(token) }
        return InputObjectTypeExtension(name: name, directives: directives, fields: fields, range: range(from: start))
    }
}
