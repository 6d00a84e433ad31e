import GraphQLLanguage

extension OperationRenderer {
    /// The declared defaults of `definitions` as `"name": value` JSON literals, in the order
    /// written: the provider sends them for a variable left `nil`, as it does for the operation
    /// loaded from its file, so that both send the same variables and share cache entries.
    static func variableDefaults(_ definitions: [VariableDefinition]) -> [String] {
        definitions.compactMap { definition in
            definition.defaultValue.map { SwiftNames.literal(definition.variable.name.value) + ": " + jsonLiteral($0) }
        }
    }

    /// A constant GraphQL value as a `JSONValue` literal (a default holds no variables).
    static func jsonLiteral(_ value: Value) -> String {
        switch value {
        case .int(let int): int.value
        case .float(let float): float.value
        case .string(let string): SwiftNames.literal(string.value)
        case .boolean(let boolean): boolean.value ? "true" : "false"
        case .enum(let enumValue): SwiftNames.literal(enumValue.value)
        case .null, .variable: "nil"
        case .list(let list): "[" + list.values.map(jsonLiteral).joined(separator: ", ") + "]"
        case .object(let object):
            object.fields.isEmpty ? "[:]"
                : "[" + object.fields.map { SwiftNames.literal($0.name.value) + ": " + jsonLiteral($0.value) }
                    .joined(separator: ", ") + "]"
        }
    }
}
