import GraphQLLanguage

/// Swift expressions for GraphQL default values, used as default arguments of generated
/// initializers. A value that has no Swift spelling for its type (an integer for a scalar
/// mapped to a custom type, say) has none, and the argument defaults to `nil`: a `nil` is not
/// sent, so the server applies the same default.
struct DefaultLiterals {
    let names: GeneratedNames
    /// Input objects being spelled, so that a self-containing default stops.
    private var open: Set<String> = []

    init(names: GeneratedNames) {
        self.names = names
    }

    /// The Swift expression for `value` of a schema type.
    mutating func literal(_ value: Value, type: Schema.TypeRef) -> String? {
        if case .null = value { return type.isNonNull ? nil : "nil" }
        if let item = type.listItem {
            if case .list(let list) = value {
                var items: [String] = []
                for element in list.values {
                    guard let spelled = literal(element, type: item) else { return nil }
                    items.append(spelled)
                }
                return "[" + items.joined(separator: ", ") + "]"
            }
            return literal(value, type: item).map { "[" + $0 + "]" }
        }
        let named = names.schema.namedType(of: type)
        return literal(value, named: named)
    }

    /// The Swift expression for `value` of a variable's declared type.
    mutating func literal(_ value: Value, reference: TypeReference) -> String? {
        guard let type = names.schema.typeRef(reference) else { return nil }
        return literal(value, type: type)
    }

    private mutating func literal(_ value: Value, named: Schema.NamedType) -> String? {
        let swiftType = names.leafType(named.name)
        switch (value, named.kind) {
        case (.int(let int), .scalar) where swiftType == "Int" || swiftType == "Double":
            return int.value
        case (.float(let float), .scalar) where swiftType == "Double":
            return float.value
        case (.string(let string), .scalar) where swiftType == "String":
            return SwiftNames.literal(string.value)
        case (.boolean(let boolean), .scalar) where swiftType == "Bool":
            return boolean.value ? "true" : "false"
        case (.enum(let enumValue), .enum):
            guard let index = named.enumValues.firstIndex(where: { $0.name == enumValue.value }) else { return nil }
            return "." + SwiftNames.escaped(SchemaTypeRenderer.caseNames(named)[index])
        case (.object(let object), .inputObject):
            guard !open.contains(named.name) else { return nil }
            open.insert(named.name)
            defer { open.remove(named.name) }
            var arguments: [String] = []
            for field in named.inputFields {
                guard let given = object.fields.first(where: { $0.name.value == field.name }) else {
                    if field.type.isNonNull, field.defaultValue == nil { return nil }
                    continue
                }
                guard let spelled = literal(given.value, type: field.type) else { return nil }
                arguments.append("\(field.name): \(spelled)")
            }
            return swiftType + "(" + arguments.joined(separator: ", ") + ")"
        default:
            return nil
        }
    }
}
