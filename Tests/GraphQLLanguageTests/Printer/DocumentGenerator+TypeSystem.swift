import GraphQLLanguage

extension DocumentGenerator {
    /// A type-system document with every kind of definition and extension, in random order.
    mutating func schemaDocument() -> Document {
        var definitions: [Definition] = []
        for _ in 0..<count(1...8) { definitions.append(typeSystemDefinition()) }
        return Document(definitions: definitions)
    }

    mutating func description() -> StringValue? { chance(40) ? string() : nil }

    mutating func typeSystemDefinition() -> Definition {
        switch count(0...13) {
        case 0:
            return .schema(SchemaDefinition(
                description: description(), directives: directives(constant: true),
                operationTypes: operationTypes(minimum: 1)))
        case 1:
            let directives = directives(constant: true)
            return .schemaExtension(SchemaExtension(
                directives: directives, operationTypes: operationTypes(minimum: directives.isEmpty ? 1 : 0)))
        case 2: return .type(.scalar(ScalarTypeDefinition(description: description(), name: typeName(), directives: directives(constant: true))))
        case 3:
            return .type(.object(ObjectTypeDefinition(
                description: description(), name: typeName(), interfaces: interfaces(), directives: directives(constant: true),
                fields: fieldDefinitions(minimum: 0))))
        case 4:
            return .type(.interface(InterfaceTypeDefinition(
                description: description(), name: typeName(), interfaces: interfaces(), directives: directives(constant: true),
                fields: fieldDefinitions(minimum: 0))))
        case 5:
            return .type(.union(UnionTypeDefinition(
                description: description(), name: typeName(), directives: directives(constant: true), types: members(minimum: 0))))
        case 6:
            return .type(.enum(EnumTypeDefinition(
                description: description(), name: typeName(), directives: directives(constant: true), values: enumValues(minimum: 0))))
        case 7:
            return .type(.inputObject(InputObjectTypeDefinition(
                description: description(), name: typeName(), directives: directives(constant: true),
                fields: inputValues(minimum: 0))))
        case 8:
            return .directive(DirectiveDefinition(
                description: description(), name: name(), arguments: inputValues(minimum: 0), repeatable: chance(30),
                locations: (0..<count(1...3)).map { _ in Name(pick(DirectiveLocation.allCases).rawValue) }))
        case 9:
            return .typeExtension(.scalar(ScalarTypeExtension(name: typeName(), directives: [
                Directive(name: name(), arguments: arguments(constant: true))
            ])))
        case 10:
            let directives = directives(constant: true)
            return .typeExtension(.object(ObjectTypeExtension(
                name: typeName(), interfaces: interfaces(), directives: directives,
                fields: fieldDefinitions(minimum: directives.isEmpty ? 1 : 0))))
        case 11:
            let directives = directives(constant: true)
            return .typeExtension(.union(UnionTypeExtension(
                name: typeName(), directives: directives, types: members(minimum: directives.isEmpty ? 1 : 0))))
        case 12:
            let directives = directives(constant: true)
            return .typeExtension(.enum(EnumTypeExtension(
                name: typeName(), directives: directives, values: enumValues(minimum: directives.isEmpty ? 1 : 0))))
        default:
            let directives = directives(constant: true)
            return .typeExtension(.inputObject(InputObjectTypeExtension(
                name: typeName(), directives: directives, fields: inputValues(minimum: directives.isEmpty ? 1 : 0))))
        }
    }

    mutating func operationTypes(minimum: Int) -> [OperationTypeDefinition] {
        (0..<count(minimum...3)).map { _ in
            OperationTypeDefinition(operation: pick(OperationType.allCases), type: NamedType(name: typeName()))
        }
    }

    mutating func interfaces() -> [NamedType] {
        (0..<(chance(40) ? count(1...3) : 0)).map { _ in NamedType(name: typeName()) }
    }

    mutating func members(minimum: Int) -> [NamedType] {
        (0..<count(minimum...3)).map { _ in NamedType(name: typeName()) }
    }

    mutating func fieldDefinitions(minimum: Int) -> [FieldDefinition] {
        (0..<count(minimum...4)).map { _ in
            FieldDefinition(
                description: description(), name: name(), arguments: chance(50) ? inputValues(minimum: 1) : [],
                type: type(depth: 2), directives: directives(constant: true))
        }
    }

    mutating func inputValues(minimum: Int) -> [InputValueDefinition] {
        (0..<count(minimum...3)).map { _ in
            InputValueDefinition(
                description: chance(30) ? string() : nil, name: name(), type: type(depth: 2),
                defaultValue: chance(30) ? value(constant: true, depth: 2) : nil, directives: directives(constant: true))
        }
    }

    mutating func enumValues(minimum: Int) -> [EnumValueDefinition] {
        (0..<count(minimum...3)).map { _ in
            EnumValueDefinition(description: description(), name: Name(pick(["A", "RED", "on", "query", "_Z"])),
                                directives: directives(constant: true))
        }
    }
}
