extension SchemaBuilder {
    /// Fills fields, interfaces, members, values and input fields of every type from its definition
    /// and extensions, in that order. A name given twice keeps its first position and its last
    /// definition, as graphql-js's field maps do.
    mutating func fillTypes() {
        for index in types.indices {
            guard let definition = definitionOfType[index] else { continue }
            var type = types[index]
            type.description = definition.node.description?.value
            var positions = MemberPositions()
            fill(&type, from: definition.node, &positions)
            // Extensions of built-in and introspection types are ignored, as in graphql-js.
            if definition.document >= 0 {
                for located in extensionsOfType[index] where kind(of: located.node) == type.kind {
                    fill(&type, from: located.node, &positions)
                }
            }
            types[index] = type
        }
    }

    /// The position of each field, enum value and input field name in the type being filled, so
    /// that a name given again is found without searching the list.
    private struct MemberPositions {
        var fields: [String: Int] = [:]
        var enumValues: [String: Int] = [:]
        var inputFields: [String: Int] = [:]
    }

    private func kind(of node: TypeExtension) -> Schema.TypeKind {
        switch node {
        case .scalar: .scalar
        case .object: .object
        case .interface: .interface
        case .union: .union
        case .enum: .enum
        case .inputObject: .inputObject
        }
    }

    private func fill(_ type: inout Schema.NamedType, from node: TypeDefinition, _ positions: inout MemberPositions) {
        switch node {
        case .scalar(let scalar):
            applyScalarDirectives(&type, scalar.directives)
        case .object(let object):
            addFields(&type, object.fields, &positions.fields)
            addInterfaces(&type, object.interfaces)
        case .interface(let interface):
            addFields(&type, interface.fields, &positions.fields)
            addInterfaces(&type, interface.interfaces)
        case .union(let union):
            type.memberIndices += union.types.compactMap { typeIndexByName[$0.name.value] }
        case .enum(let enumType):
            addEnumValues(&type, enumType.values, &positions.enumValues)
        case .inputObject(let input):
            addInputFields(&type, input.fields, &positions.inputFields)
            if input.directives.contains(where: { $0.name.value == "oneOf" }) { type.isOneOf = true }
        }
    }

    private func fill(_ type: inout Schema.NamedType, from node: TypeExtension, _ positions: inout MemberPositions) {
        switch node {
        case .scalar(let scalar):
            applyScalarDirectives(&type, scalar.directives)
        case .object(let object):
            addFields(&type, object.fields, &positions.fields)
            addInterfaces(&type, object.interfaces)
        case .interface(let interface):
            addFields(&type, interface.fields, &positions.fields)
            addInterfaces(&type, interface.interfaces)
        case .union(let union):
            type.memberIndices += union.types.compactMap { typeIndexByName[$0.name.value] }
        case .enum(let enumType):
            addEnumValues(&type, enumType.values, &positions.enumValues)
        case .inputObject(let input):
            addInputFields(&type, input.fields, &positions.inputFields)
            if input.directives.contains(where: { $0.name.value == "oneOf" }) { type.isOneOf = true }
        }
    }

    private func applyScalarDirectives(_ type: inout Schema.NamedType, _ directives: [Directive]) {
        for directive in directives where directive.name.value == "specifiedBy" {
            for argument in directive.arguments where argument.name.value == "url" {
                if case .string(let url) = argument.value { type.specifiedByURL = url.value }
            }
        }
    }

    private func addInterfaces(_ type: inout Schema.NamedType, _ interfaces: [NamedType]) {
        type.interfaceIndices += interfaces.compactMap { typeIndexByName[$0.name.value] }
    }

    private func addFields(
        _ type: inout Schema.NamedType, _ definitions: [FieldDefinition], _ positions: inout [String: Int]
    ) {
        for definition in definitions {
            let field = Schema.Field(
                name: definition.name.value, description: definition.description?.value,
                arguments: definition.arguments.map(inputValue), type: resolve(definition.type),
                deprecationReason: deprecationReason(definition.directives)
            )
            if let existing = positions[field.name] {
                type.fields[existing] = field
            } else {
                positions[field.name] = type.fields.count
                type.fields.append(field)
            }
        }
    }

    private func addEnumValues(
        _ type: inout Schema.NamedType, _ definitions: [EnumValueDefinition], _ positions: inout [String: Int]
    ) {
        for definition in definitions {
            let value = Schema.EnumValue(
                name: definition.name.value, description: definition.description?.value,
                deprecationReason: deprecationReason(definition.directives)
            )
            if let existing = positions[value.name] {
                type.enumValues[existing] = value
            } else {
                positions[value.name] = type.enumValues.count
                type.enumValues.append(value)
            }
        }
    }

    private func addInputFields(
        _ type: inout Schema.NamedType, _ definitions: [InputValueDefinition], _ positions: inout [String: Int]
    ) {
        for definition in definitions {
            let field = inputValue(definition)
            if let existing = positions[field.name] {
                type.inputFields[existing] = field
            } else {
                positions[field.name] = type.inputFields.count
                type.inputFields.append(field)
            }
        }
    }

    func inputValue(_ definition: InputValueDefinition) -> Schema.InputValue {
        Schema.InputValue(
            name: definition.name.value, description: definition.description?.value,
            type: resolve(definition.type), defaultValue: definition.defaultValue,
            deprecationReason: deprecationReason(definition.directives)
        )
    }

    /// The reason of a `@deprecated` directive: its `reason` argument or graphql-js's default.
    func deprecationReason(_ directives: [Directive]) -> String? {
        guard let directive = directives.first(where: { $0.name.value == "deprecated" }) else { return nil }
        for argument in directive.arguments where argument.name.value == "reason" {
            if case .string(let reason) = argument.value { return reason.value }
        }
        return "No longer supported"
    }

    /// Resolves a type reference; an unknown name (reported by the SDL check) resolves to `String`
    /// so that building can go on and report every problem.
    func resolve(_ reference: TypeReference) -> Schema.TypeRef {
        var mask: UInt64 = 0
        var level = 0
        var current = reference
        while true {
            switch current {
            case .nonNull(let node):
                mask |= 1 << UInt64(min(level, 63))
                current = node.type
            case .list(let node):
                level += 1
                current = node.type
            case .named(let node):
                let index = typeIndexByName[node.name.value] ?? Schema.stringIndex
                return Schema.TypeRef(
                    named: index, listDepth: min(level, Schema.TypeRef.maximumListDepth), nonNullMask: mask
                )
            }
        }
    }

    /// The directives: those the documents define (the first of a name wins a lookup), then the
    /// specified ones they do not redefine.
    func buildDirectives() -> (list: [Schema.Directive], index: [String: Int]) {
        var list: [Schema.Directive] = []
        var index: [String: Int] = [:]
        func add(_ definition: DirectiveDefinition) {
            let directive = Schema.Directive(
                name: definition.name.value, description: definition.description?.value,
                arguments: definition.arguments.map(inputValue),
                locations: definition.locations.compactMap { DirectiveLocation(rawValue: $0.value) },
                isRepeatable: definition.repeatable
            )
            if index[directive.name] == nil { index[directive.name] = list.count }
            list.append(directive)
        }
        directiveDefinitions.forEach { add($0.node) }
        if addsSpecifiedDirectives {
            for definition in IntrospectionTypes.specifiedDirectives where index[definition.name.value] == nil {
                add(definition)
            }
        }
        return (list, index)
    }
}
