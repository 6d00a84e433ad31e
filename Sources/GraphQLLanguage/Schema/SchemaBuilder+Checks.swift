/// The checks of graphql-js's `validateSchema`, run on the built schema with the definitions at
/// hand for locations. Built-in and introspection types are known to be valid and are skipped.
extension SchemaBuilder {
    mutating func checkSchema(_ schema: Schema) {
        checkRootTypes(schema)
        checkDirectives(schema)
        for index in schema.types.indices where (definitionOfType[index]?.document ?? -1) >= 0 {
            let type = schema.types[index]
            let definition = definitionOfType[index]
            checkName(type.name, [(definition?.document ?? 0, definition?.node.range.start ?? 0)])
            switch type.kind {
            case .object, .interface:
                checkFields(schema, index)
                checkInterfaces(schema, index)
            case .union: checkUnion(schema, index)
            case .enum: checkEnum(schema, index)
            case .inputObject: checkInputObject(schema, index)
            case .scalar: break
            }
        }
        checkInputObjectCycles(schema)
    }

    private mutating func checkRootTypes(_ schema: Schema) {
        let schemaPlace: [Place] = schemaDefinitions.first.map { [($0.document, $0.node.range.start)] } ?? []
        if schema.queryTypeIndex < 0 {
            report("Query root type must be provided.", schemaPlace)
        }
        let roots: [(OperationType, Int, String)] = [
            (.query, schema.queryTypeIndex, "Query root type must be Object type, it cannot be "),
            (.mutation, schema.mutationTypeIndex, "Mutation root type must be Object type if provided, it cannot be "),
            (.subscription, schema.subscriptionTypeIndex,
             "Subscription root type must be Object type if provided, it cannot be "),
        ]
        for (operation, index, message) in roots where index >= 0 && schema.types[index].kind != .object {
            var places: [Place] = []
            for located in schemaDefinitions.prefix(1) {
                for node in located.node.operationTypes where node.operation == operation {
                    places.append((located.document, node.type.range.start))
                }
            }
            for located in schemaExtensions {
                for node in located.node.operationTypes where node.operation == operation {
                    places.append((located.document, node.type.range.start))
                }
            }
            if places.isEmpty { places = Array(typePlaces(index).prefix(1)) }
            report(message + schema.types[index].name + ".", Array(places.suffix(1)))
        }
    }

    private mutating func checkDirectives(_ schema: Schema) {
        for located in directiveDefinitions {
            let definition = located.node
            let name = definition.name.value
            checkName(name, [(located.document, definition.range.start)])
            for argument in definition.arguments {
                checkName(argument.name.value, [(located.document, argument.range.start)])
                let type = resolve(argument.type)
                if !schema.types[type.namedIndex].kind.isInput {
                    report(
                        "The type of @\(name)(\(argument.name.value):) must be Input Type but got: "
                            + "\(schema.name(of: type)).", [(located.document, argument.range.start)]
                    )
                }
                if type.isNonNull, argument.defaultValue == nil, deprecationReason(argument.directives) != nil {
                    report(
                        "Required argument @\(name)(\(argument.name.value):) cannot be deprecated.",
                        deprecatedPlace(argument.directives, document: located.document)
                            + [(located.document, argument.type.range.start)]
                    )
                }
            }
        }
    }

    /// graphql-js `validateName`: names starting with `__` are reserved.
    mutating func checkName(_ name: String, _ places: [Place]) {
        if name.hasPrefix("__") {
            report(
                "Name \"\(name)\" must not begin with \"__\", which is reserved by GraphQL introspection.", places
            )
        }
    }

    private mutating func checkFields(_ schema: Schema, _ index: Int) {
        let type = schema.types[index]
        if type.fields.isEmpty {
            report("Type \(type.name) must define one or more fields.", typePlaces(index))
        }
        for field in type.fields {
            let node = fieldNode(index, field.name)
            let document = node?.document ?? 0
            checkName(field.name, node.map { [(document, $0.node.range.start)] } ?? [])
            if !schema.types[field.type.namedIndex].kind.isOutput {
                report(
                    "The type of \(type.name).\(field.name) must be Output Type but got: "
                        + "\(schema.name(of: field.type)).", node.map { [(document, $0.node.type.range.start)] } ?? []
                )
            }
            for argument in field.arguments {
                let argumentNode = node?.node.arguments.last { $0.name.value == argument.name }
                checkName(argument.name, argumentNode.map { [(document, $0.range.start)] } ?? [])
                if !schema.types[argument.type.namedIndex].kind.isInput {
                    report(
                        "The type of \(type.name).\(field.name)(\(argument.name):) must be Input Type but got: "
                            + "\(schema.name(of: argument.type)).",
                        argumentNode.map { [(document, $0.type.range.start)] } ?? []
                    )
                }
                if argument.isRequired, argument.isDeprecated {
                    report(
                        "Required argument \(type.name).\(field.name)(\(argument.name):) cannot be deprecated.",
                        (argumentNode.map { deprecatedPlace($0.directives, document: document) } ?? [])
                            + (argumentNode.map { [(document, $0.type.range.start)] } ?? [])
                    )
                }
            }
        }
    }

    private mutating func checkInterfaces(_ schema: Schema, _ index: Int) {
        let type = schema.types[index]
        var seen = Set<Int>()
        for interface in type.interfaceIndices {
            let interfaceType = schema.types[interface]
            let places = implementsPlaces(index, interfaceType.name)
            if interfaceType.kind != .interface {
                report(
                    "Type \(type.name) must only implement Interface types, it cannot implement "
                        + "\(interfaceType.name).", places
                )
                continue
            }
            if interface == index {
                report(
                    "Type \(type.name) cannot implement itself because it would create a circular reference.", places
                )
                continue
            }
            if !seen.insert(interface).inserted {
                report("Type \(type.name) can only implement \(interfaceType.name) once.", places)
                continue
            }
            for transitive in interfaceType.interfaceIndices where !type.interfaceIndices.contains(transitive) {
                let message = transitive == index
                    ? "Type \(type.name) cannot implement \(interfaceType.name) because it would create a "
                        + "circular reference."
                    : "Type \(type.name) must implement \(schema.types[transitive].name) because it is implemented "
                        + "by \(interfaceType.name)."
                report(message, implementsPlaces(interface, schema.types[transitive].name) + places)
            }
            checkImplementation(schema, index, interface)
        }
    }

    private mutating func checkImplementation(_ schema: Schema, _ index: Int, _ interface: Int) {
        let type = schema.types[index]
        let interfaceType = schema.types[interface]
        for interfaceField in interfaceType.fields {
            let name = interfaceField.name
            let interfaceNode = fieldNode(interface, name)
            guard let typeField = type.field(named: name) else {
                report(
                    "Interface field \(interfaceType.name).\(name) expected but \(type.name) does not provide it.",
                    (interfaceNode.map { [($0.document, $0.node.range.start)] } ?? []) + typePlaces(index)
                )
                continue
            }
            let typeNode = fieldNode(index, name)
            if !schema.isTypeSubType(typeField.type, of: interfaceField.type) {
                report(
                    "Interface field \(interfaceType.name).\(name) expects type "
                        + "\(schema.name(of: interfaceField.type)) "
                        + "but \(type.name).\(name) is type \(schema.name(of: typeField.type)).",
                    (interfaceNode.map { [($0.document, $0.node.type.range.start)] } ?? [])
                        + (typeNode.map { [($0.document, $0.node.type.range.start)] } ?? [])
                )
            }
            for interfaceArgument in interfaceField.arguments {
                let argumentName = interfaceArgument.name
                let interfaceArgumentNode = argumentNode(interface, name, argumentName)
                guard let typeArgument = typeField.argument(named: argumentName) else {
                    report(
                        "Interface field argument \(interfaceType.name).\(name)(\(argumentName):) expected but "
                            + "\(type.name).\(name) does not provide it.",
                        (interfaceArgumentNode.map { [($0.document, $0.node.range.start)] } ?? [])
                            + (typeNode.map { [($0.document, $0.node.range.start)] } ?? [])
                    )
                    continue
                }
                if typeArgument.type != interfaceArgument.type {
                    let typeArgumentNode = argumentNode(index, name, argumentName)
                    report(
                        "Interface field argument \(interfaceType.name).\(name)(\(argumentName):) expects type "
                            + "\(schema.name(of: interfaceArgument.type)) but \(type.name).\(name)(\(argumentName):) "
                            + "is type \(schema.name(of: typeArgument.type)).",
                        (interfaceArgumentNode.map { [($0.document, $0.node.type.range.start)] } ?? [])
                            + (typeArgumentNode.map { [($0.document, $0.node.type.range.start)] } ?? [])
                    )
                }
            }
            for typeArgument in typeField.arguments
            where typeArgument.isRequired && interfaceField.argument(named: typeArgument.name) == nil {
                let typeArgumentNode = argumentNode(index, name, typeArgument.name)
                report(
                    "Object field \(type.name).\(name) includes required argument \(typeArgument.name) that is "
                        + "missing from the Interface field \(interfaceType.name).\(name).",
                    (typeArgumentNode.map { [($0.document, $0.node.range.start)] } ?? [])
                        + (interfaceNode.map { [($0.document, $0.node.range.start)] } ?? [])
                )
            }
        }
    }

    private mutating func checkUnion(_ schema: Schema, _ index: Int) {
        let union = schema.types[index]
        if union.memberIndices.isEmpty {
            report("Union type \(union.name) must define one or more member types.", typePlaces(index))
        }
        var seen = Set<Int>()
        for member in union.memberIndices {
            let memberType = schema.types[member]
            if !seen.insert(member).inserted {
                report(
                    "Union type \(union.name) can only include type \(memberType.name) once.",
                    memberPlaces(index, memberType.name)
                )
                continue
            }
            if memberType.kind != .object {
                report(
                    "Union type \(union.name) can only include Object types, it cannot include \(memberType.name).",
                    memberPlaces(index, memberType.name)
                )
            }
        }
    }

    private mutating func checkEnum(_ schema: Schema, _ index: Int) {
        let type = schema.types[index]
        if type.enumValues.isEmpty {
            report("Enum type \(type.name) must define one or more values.", typePlaces(index))
        }
        for value in type.enumValues where value.name.hasPrefix("__") {
            checkName(value.name, Array(typePlaces(index).prefix(1)))
        }
    }

    private mutating func checkInputObject(_ schema: Schema, _ index: Int) {
        let type = schema.types[index]
        if type.inputFields.isEmpty {
            report("Input Object type \(type.name) must define one or more fields.", typePlaces(index))
        }
        for field in type.inputFields {
            let node = inputFieldNode(index, field.name)
            let document = node?.document ?? 0
            checkName(field.name, node.map { [(document, $0.node.range.start)] } ?? [])
            let typePlace: [Place] = node.map { [(document, $0.node.type.range.start)] } ?? []
            if !schema.types[field.type.namedIndex].kind.isInput {
                report(
                    "The type of \(type.name).\(field.name) must be Input Type but got: "
                        + "\(schema.name(of: field.type)).",
                    typePlace
                )
            }
            if field.isRequired, field.isDeprecated {
                report(
                    "Required input field \(type.name).\(field.name) cannot be deprecated.",
                    (node.map { deprecatedPlace($0.node.directives, document: document) } ?? []) + typePlace
                )
            }
            if type.isOneOf {
                if field.type.isNonNull {
                    report("OneOf input field \(type.name).\(field.name) must be nullable.", typePlace)
                }
                if field.defaultValue != nil {
                    report(
                        "OneOf input field \(type.name).\(field.name) cannot have a default value.",
                        node.map { [(document, $0.node.range.start)] } ?? []
                    )
                }
            }
        }
    }
}
