import GraphQLLanguage

/// Writes the schema's enums and input objects as Swift types.
struct SchemaTypeRenderer {
    let names: GeneratedNames
    /// The modules the written code needs for mapped scalar types.
    private(set) var modules: Set<String> = []

    init(names: GeneratedNames) {
        self.names = names
    }

    /// The Swift case name of each value of an enum, in declaration order: camel case, or the
    /// values as written when camel case would make two the same or clash with a member.
    static func caseNames(_ type: Schema.NamedType) -> [String] {
        let camel = type.enumValues.map { SwiftNames.caseName($0.name) }
        var counts: [String: Int] = [:]
        for name in camel { counts[name, default: 0] += 1 }
        let names = zip(type.enumValues, camel).map { value, name in
            counts[name] == 1 && !["rawValue", "__unknown"].contains(name) ? name : value.name
        }
        return Set(names).count == names.count ? names : type.enumValues.map(\.name)
    }

    /// An enum with a case per value and `__unknown` for values this schema does not list.
    func renderEnum(_ type: Schema.NamedType, into writer: inout SwiftWriter) {
        let access = names.access
        let name = names.leafType(type.name)
        let cases = Self.caseNames(type).map(SwiftNames.escaped)
        writer.documentation(type.description ?? "The schema's `\(type.name)` enum.")
        writer.block("\(access)enum \(name): RawRepresentable, Codable, Sendable, Hashable {") { writer in
            for (value, caseName) in zip(type.enumValues, cases) {
                writer.documentation(Self.documentation(value.description, deprecation: value.deprecationReason))
                writer.line("case \(caseName)")
            }
            writer.line("/// A value this version of the schema does not list, as the server sent it.")
            writer.line("case __unknown(String)")
            writer.line()
            writer.line("/// The case for a value as the server writes it.")
            writer.block("\(access)init(rawValue: String) {") { writer in
                writer.block("switch rawValue {", closing: "}") { writer in
                    for (value, caseName) in zip(type.enumValues, cases) {
                        writer.line("case \(SwiftNames.literal(value.name)): self = .\(caseName)")
                    }
                    writer.line("default: self = .__unknown(rawValue)")
                }
            }
            writer.line()
            writer.line("/// The value as the server writes it.")
            writer.block("\(access)var rawValue: String {") { writer in
                writer.block("switch self {") { writer in
                    for (value, caseName) in zip(type.enumValues, cases) {
                        writer.line("case .\(caseName): \(SwiftNames.literal(value.name))")
                    }
                    writer.line("case .__unknown(let value): value")
                }
            }
            writer.line()
            writer.line("/// Decodes the value from a string; an unknown value becomes `__unknown`.")
            writer.block("\(access)init(from decoder: any Decoder) throws {") { writer in
                writer.line("self.init(rawValue: try decoder.singleValueContainer().decode(String.self))")
            }
            writer.line()
            writer.line("/// Encodes the value as a string.")
            writer.block("\(access)func encode(to encoder: any Encoder) throws {") { writer in
                writer.line("var container = encoder.singleValueContainer()")
                writer.line("try container.encode(rawValue)")
            }
        }
    }

    /// An input object: a struct (a final class when it contains itself) whose `nil` members are
    /// left out when it is encoded.
    mutating func renderInputObject(_ type: Schema.NamedType, isRecursive: Bool, into writer: inout SwiftWriter) {
        let access = names.access
        let name = names.leafType(type.name)
        var parameters: [String] = []
        var literals = DefaultLiterals(names: names)
        writer.documentation(type.description ?? "The schema's `\(type.name)` input object.")
        let kind = isRecursive ? "final class" : "struct"
        let binding = isRecursive ? "let" : "var"
        writer.block("\(access)\(kind) \(name): Encodable, Sendable {") { writer in
            for field in type.inputFields {
                let leaf = names.schema.namedType(of: field.type).name
                if let module = names.module(forLeaf: leaf) { modules.insert(module) }
                var swiftType = names.swiftType(field.type, named: names.leafType(leaf))
                if field.defaultValue != nil, !swiftType.hasSuffix("?") { swiftType += "?" }
                let property = SwiftNames.escaped(field.name)
                writer.documentation(Self.documentation(field.description, deprecation: field.deprecationReason))
                writer.line("\(access)\(binding) \(property): \(swiftType)")
                var parameter = "\(SwiftNames.parameter(field.name).label): \(swiftType)"
                if swiftType.hasSuffix("?") {
                    let fallback = field.defaultValue.flatMap { literals.literal($0, type: field.type) } ?? "nil"
                    parameter += " = " + fallback
                }
                parameters.append(parameter)
            }
            writer.line()
            writer.line("/// Creates the input; a member left `nil` is not sent, so the server applies its default.")
            writer.signature("\(access)init", parameters) { writer in
                for field in type.inputFields {
                    writer.line("self.\(SwiftNames.escaped(field.name)) = \(SwiftNames.parameter(field.name).value)")
                }
            }
        }
    }

    static func documentation(_ description: String?, deprecation: String?) -> String? {
        guard let deprecation else { return description }
        let note = "- Note: Deprecated" + (deprecation.isEmpty ? "." : ": \(deprecation)")
        return description.map { $0 + "\n\n" + note } ?? note
    }
}
