import GraphQLLanguage

/// The Swift names of everything generated at the top level, and the Swift type of each
/// schema type a generated property can have.
struct GeneratedNames {
    let schema: Schema
    let configuration: CodegenConfiguration
    /// Schema enum and input object name → Swift type name.
    var schemaTypes: [String: String] = [:]
    /// Fragment name → Swift type name.
    var fragments: [String: String] = [:]
    /// Names a nested type must not take, so that every reference to a top-level type, a Swift
    /// standard type or a mapped scalar's type finds what it means.
    var reserved: Set<String> = SwiftNames.reservedTypeNames

    init(schema: Schema, configuration: CodegenConfiguration) {
        self.schema = schema
        self.configuration = configuration
        for type in configuration.scalars.values {
            if let first = type.split(separator: ".").first { reserved.insert(String(first)) }
        }
    }

    /// `public ` or nothing.
    var access: String { configuration.access == .public ? "public " : "" }

    /// The Swift type of a leaf or input type: a scalar, an enum or an input object. A custom
    /// scalar named `Upload` that the configuration does not map is Gateway's `GraphQLUpload` in
    /// variables (`inResponse` false), and a `String` in responses, where a file cannot come back.
    func leafType(_ typeName: String, inResponse: Bool = false) -> String {
        switch typeName {
        case "String", "ID": return configuration.scalars[typeName] ?? "String"
        case "Int": return configuration.scalars[typeName] ?? "Int"
        case "Float": return configuration.scalars[typeName] ?? "Double"
        case "Boolean": return configuration.scalars[typeName] ?? "Bool"
        default:
            if let name = schemaTypes[typeName] { return name }
            if let mapped = configuration.scalars[typeName] { return mapped }
            let isUploadScalar = typeName == Self.uploadScalar && schema.type(named: typeName)?.kind == .scalar
            return isUploadScalar && !inResponse ? Self.uploadType : "String"
        }
    }

    /// The scalar of the GraphQL multipart request specification.
    static let uploadScalar = "Upload"
    /// Gateway's type for a file sent with an operation.
    static let uploadType = "GraphQLUpload"

    /// Whether values of the leaf type `typeName` are files: its Swift type in variables is
    /// `GraphQLUpload` (the `Upload` scalar by default, or a scalar mapped to it).
    func isUpload(_ typeName: String) -> Bool {
        let swiftType = leafType(typeName)
        return swiftType == Self.uploadType || swiftType == "Gateway." + Self.uploadType
    }

    /// The module a leaf type's Swift type needs imported, if any.
    func module(forLeaf typeName: String) -> String? {
        configuration.scalars[typeName].flatMap(CodegenConfiguration.module(of:))
    }

    /// The Swift spelling of `type` whose named type is written `named`: `[Artist]`, `String?`.
    func swiftType(_ type: Schema.TypeRef, named: String) -> String {
        let base = type.listItem.map { "[" + swiftType($0, named: named) + "]" } ?? named
        return type.isNonNull ? base : base + "?"
    }

    /// The Swift spelling of a variable's declared type.
    func swiftType(_ reference: TypeReference) -> String {
        switch reference {
        case .named(let named): return leafType(named.name.value) + "?"
        case .list(let list): return "[" + swiftType(list.type) + "]?"
        case .nonNull(let nonNull):
            let inner = swiftType(nonNull.type)
            return String(inner.dropLast())
        }
    }

    /// The name a schema type takes at the top level: its own, with `_` added when it would hide a
    /// Swift type the generated code uses.
    static func topLevelName(_ name: String) -> String {
        SwiftNames.reservedTypeNames.contains(name) || SwiftNames.keywords.contains(name) ? name + "_" : name
    }
}
