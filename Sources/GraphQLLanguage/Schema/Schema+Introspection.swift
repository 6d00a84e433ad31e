extension Schema {
    /// Builds a schema from the JSON of an introspection query's result, in either wrapping:
    /// `{"data": {"__schema": ...}}` or `{"__schema": ...}` (graphql-js `buildClientSchema`).
    ///
    /// As in graphql-js, the schema has exactly the directives the result lists (none are added),
    /// and the built-in scalars and introspection types replace those in the result. A type the
    /// result refers to but does not describe is an error.
    /// - Parameter json: The parsed introspection result.
    /// - Returns: The schema, if it could be built, and the diagnostics.
    public static func build(introspection json: JSONValue) -> SchemaBuildResult {
        var converter = IntrospectionConverter()
        guard let document = converter.document(from: json) else {
            return SchemaBuildResult(schema: nil, diagnostics: converter.problems.map { Diagnostic(message: $0) })
        }
        var builder = SchemaBuilder(documents: [document], lenient: false)
        builder.addsSpecifiedDirectives = false
        var references = SDLValidator(documents: [document])
        references.run()
        for problem in references.problems where problem.rule == "KnownTypeNamesRule" {
            let name = problem.message.split(separator: "\"").dropFirst().first.map(String.init) ?? ""
            builder.report(
                "Invalid or incomplete schema, unknown type: \(name). Ensure that a full introspection query is "
                    + "used in order to build a client schema.", [], fatal: true
            )
        }
        var result = builder.build()
        result.diagnostics = converter.problems.map { Diagnostic(message: $0) } + result.diagnostics
        if !converter.problems.isEmpty { result.schema = nil }
        return result
    }

    /// Parses introspection JSON text and builds a schema from it.
    /// - Parameters:
    ///   - bytes: The UTF-8 JSON text.
    ///   - name: The file's name, for messages.
    /// - Returns: The schema, if it could be built, and the diagnostics; invalid JSON is an error.
    public static func build(introspectionJSON bytes: [UInt8], name: String = "introspection.json")
        -> SchemaBuildResult
    {
        do {
            return build(introspection: try JSONValue(parsing: bytes))
        } catch {
            let source = Source(bytes: bytes, name: name)
            let location = SourceLocation(offset: error.offset, line: error.line, column: error.column, source: source)
            return SchemaBuildResult(
                schema: nil, diagnostics: [Diagnostic(message: "Invalid JSON: \(error.message)", locations: [location])]
            )
        }
    }
}

/// Turns an introspection result into SDL definitions, so that one builder serves both.
struct IntrospectionConverter {
    var problems: [String] = []

    mutating func document(from json: JSONValue) -> Document? {
        guard let schema = json["data"]?["__schema"] ?? json["__schema"], case .object = schema else {
            problems.append(
                "Invalid or incomplete introspection result. Ensure that you are passing the \"data\" attribute of an "
                    + "introspection response (or the response itself, with \"data\") and that no \"errors\" were "
                    + "returned alongside: the JSON has no \"__schema\" object."
            )
            return nil
        }
        guard let types = schema["types"]?.arrayValue else {
            problems.append("Invalid introspection result: \"__schema\" has no \"types\" list.")
            return nil
        }
        var definitions: [Definition] = []
        var operationTypes: [OperationTypeDefinition] = []
        for (operation, key) in [(OperationType.query, "queryType"), (.mutation, "mutationType"),
                                 (.subscription, "subscriptionType")] {
            if let name = schema[key]?["name"]?.stringValue {
                operationTypes.append(OperationTypeDefinition(operation: operation, type: NamedType(name: Name(name))))
            }
        }
        if operationTypes.isEmpty {
            problems.append("Invalid introspection result: \"__schema\" has no \"queryType\".")
        }
        definitions.append(.schema(SchemaDefinition(
            description: schema["description"]?.stringValue.map { StringValue($0) }, operationTypes: operationTypes
        )))
        for type in types {
            guard let name = type["name"]?.stringValue else {
                problems.append("Invalid introspection result: a type has no name.")
                continue
            }
            if name.hasPrefix("__") { continue }
            if let definition = typeDefinition(type, name: name) { definitions.append(.type(definition)) }
        }
        for directive in schema["directives"]?.arrayValue ?? [] {
            guard let name = directive["name"]?.stringValue else { continue }
            let locations = (directive["locations"]?.arrayValue ?? []).compactMap { $0.stringValue.map { Name($0) } }
            definitions.append(.directive(DirectiveDefinition(
                description: description(directive), name: Name(name), arguments: inputValues(directive["args"]),
                repeatable: directive["isRepeatable"]?.boolValue ?? false, locations: locations
            )))
        }
        return Document(definitions: definitions)
    }

    private mutating func typeDefinition(_ type: JSONValue, name: String) -> TypeDefinition? {
        let kind = type["kind"]?.stringValue ?? ""
        let description = description(type)
        switch kind {
        case "SCALAR":
            var directives: [Directive] = []
            if let url = (type["specifiedByURL"] ?? type["specifiedByUrl"])?.stringValue {
                directives.append(Directive(
                    name: Name("specifiedBy"),
                    arguments: [Argument(name: Name("url"), value: .string(StringValue(url)))]
                ))
            }
            return .scalar(ScalarTypeDefinition(description: description, name: Name(name), directives: directives))
        case "OBJECT":
            return .object(ObjectTypeDefinition(
                description: description, name: Name(name), interfaces: namedTypes(type["interfaces"]),
                fields: fields(type["fields"])
            ))
        case "INTERFACE":
            return .interface(InterfaceTypeDefinition(
                description: description, name: Name(name), interfaces: namedTypes(type["interfaces"]),
                fields: fields(type["fields"])
            ))
        case "UNION":
            return .union(UnionTypeDefinition(
                description: description, name: Name(name), types: namedTypes(type["possibleTypes"])
            ))
        case "ENUM":
            let values = (type["enumValues"]?.arrayValue ?? []).compactMap { value -> EnumValueDefinition? in
                guard let valueName = value["name"]?.stringValue else { return nil }
                return EnumValueDefinition(
                    description: self.description(value), name: Name(valueName), directives: deprecation(value)
                )
            }
            return .enum(EnumTypeDefinition(description: description, name: Name(name), values: values))
        case "INPUT_OBJECT":
            let directives = type["isOneOf"]?.boolValue == true ? [Directive(name: Name("oneOf"))] : []
            return .inputObject(InputObjectTypeDefinition(
                description: description, name: Name(name), directives: directives,
                fields: inputValues(type["inputFields"])
            ))
        default:
            problems.append("Invalid introspection result: type \"\(name)\" has unknown kind \"\(kind)\".")
            return nil
        }
    }

    private func description(_ value: JSONValue) -> StringValue? {
        value["description"]?.stringValue.map { StringValue($0) }
    }

    private func deprecation(_ value: JSONValue) -> [Directive] {
        guard value["isDeprecated"]?.boolValue == true else { return [] }
        var arguments: [Argument] = []
        if let reason = value["deprecationReason"]?.stringValue {
            arguments.append(Argument(name: Name("reason"), value: .string(StringValue(reason))))
        }
        return [Directive(name: Name("deprecated"), arguments: arguments)]
    }

    private func namedTypes(_ list: JSONValue?) -> [NamedType] {
        (list?.arrayValue ?? []).compactMap { $0["name"]?.stringValue.map { NamedType(name: Name($0)) } }
    }

    private mutating func fields(_ list: JSONValue?) -> [FieldDefinition] {
        (list?.arrayValue ?? []).compactMap { field -> FieldDefinition? in
            guard let name = field["name"]?.stringValue, let type = typeReference(field["type"]) else {
                problems.append("Invalid introspection result: a field has no name or no type.")
                return nil
            }
            return FieldDefinition(
                description: description(field), name: Name(name), arguments: inputValues(field["args"]), type: type,
                directives: deprecation(field)
            )
        }
    }

    private mutating func inputValues(_ list: JSONValue?) -> [InputValueDefinition] {
        (list?.arrayValue ?? []).compactMap { value -> InputValueDefinition? in
            guard let name = value["name"]?.stringValue, let type = typeReference(value["type"]) else {
                problems.append("Invalid introspection result: an argument or input field has no name or no type.")
                return nil
            }
            return InputValueDefinition(
                description: description(value), name: Name(name), type: type,
                defaultValue: value["defaultValue"]?.stringValue.flatMap(Self.parseValue),
                directives: deprecation(value)
            )
        }
    }

    /// Converts `{"kind": "NON_NULL", "ofType": {"kind": "LIST", ...}}` into a type reference.
    private func typeReference(_ json: JSONValue?) -> TypeReference? {
        // Collect the wrappers from the outside in, then build the reference from the inside out.
        var wrappers: [Bool] = []
        var current = json
        while let node = current {
            switch node["kind"]?.stringValue {
            case "NON_NULL": wrappers.append(true)
            case "LIST": wrappers.append(false)
            default:
                guard let name = node["name"]?.stringValue else { return nil }
                var reference = TypeReference.named(NamedType(name: Name(name)))
                for isNonNull in wrappers.reversed() {
                    reference = isNonNull ? .nonNull(NonNullType(type: reference)) : .list(ListType(type: reference))
                }
                return reference
            }
            current = node["ofType"]
        }
        return nil
    }

    /// Parses a default value, which introspection gives as GraphQL text such as `"[1, 2]"`.
    static func parseValue(_ text: String) -> Value? {
        guard let document = try? Parser.parse("{f(a:" + text + ")}", name: "defaultValue"),
            case .operation(let operation)? = document.definitions.first,
            case .field(let field)? = operation.selectionSet.selections.first,
            field.arguments.count == 1
        else { return nil }
        return field.arguments[0].value
    }
}
