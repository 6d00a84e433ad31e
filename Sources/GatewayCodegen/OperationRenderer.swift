import GraphQLLanguage

/// Writes one operation as a type conforming to `GraphQLQuery`, `GraphQLMutation` or
/// `GraphQLSubscription`: its definition, its variables and its `Data`.
struct OperationRenderer {
    let names: GeneratedNames
    private(set) var modules: Set<String> = []

    init(names: GeneratedNames) {
        self.names = names
    }

    /// What the definition holds, computed by the generator.
    struct Texts {
        var text: String
        var normalizedText: String
    }

    mutating func render(
        _ operation: OperationDefinition, typeName: String, fileName: String, texts: Texts, data: SelectionModel,
        into writer: inout SwiftWriter
    ) {
        let access = names.access
        let name = operation.name?.value
        let kind = operation.operation
        let conformance = switch kind {
        case .query: "GraphQLQuery"
        case .mutation: "GraphQLMutation"
        case .subscription: "GraphQLSubscription"
        }
        let described = name.map { "The `\($0)` \(kind.rawValue)" } ?? "The anonymous \(kind.rawValue)"
        writer.line("/// \(described) of `\(fileName)`: its variables are the stored properties,")
        writer.line("/// its response is ``Data``.")
        writer.block("\(access)struct \(typeName): \(conformance) {") { writer in
            writer.line("/// The operation's name, kind, text and hashes.")
            writer.block("\(access)static let definition = GraphQLOperationDefinition(", closing: ")") { writer in
                writer.line("name: \(name.map(SwiftNames.literal) ?? "nil"),")
                writer.line("kind: .\(kind.rawValue),")
                if SwiftWriter.fitsMultiline(texts.text) {
                    writer.multilineLiteral("text: ", texts.text, suffix: ",")
                } else {
                    writer.line("text: \(SwiftNames.literal(texts.text)),")
                }
                writer.line("normalizedText: \(SwiftNames.literal(texts.normalizedText)),")
                writer.line("textHash: \"\(SHA256.hexDigest(texts.text))\",")
                let defaults = Self.variableDefaults(operation.variableDefinitions)
                writer.line("normalizedTextHash: \"\(SHA256.hexDigest(texts.normalizedText))\"" + (defaults.isEmpty ? "" : ","))
                if !defaults.isEmpty { writer.line("variableDefaults: [\(defaults.joined(separator: ", "))]") }
            }
            renderVariables(operation.variableDefinitions, into: &writer)
            renderUploads(operation.variableDefinitions, into: &writer)
            writer.line()
            var selections = SelectionRenderer(names: names)
            selections.render(
                "Data", model: data, documentation: "The response's `data`, following the operation's selections.",
                into: &writer)
            modules.formUnion(selections.modules)
        }
    }

    private mutating func renderVariables(_ variables: [VariableDefinition], into writer: inout SwiftWriter) {
        let access = names.access
        var literals = DefaultLiterals(names: names)
        var parameters: [String] = []
        for variable in variables {
            let leaf = variable.type.namedType.name.value
            if let module = names.module(forLeaf: leaf) { modules.insert(module) }
            var swiftType = names.swiftType(variable.type)
            if variable.defaultValue != nil, !swiftType.hasSuffix("?") { swiftType += "?" }
            let property = SwiftNames.escaped(variable.variable.name.value)
            writer.line()
            var documentation = "`$\(variable.variable.name.value): \(Printer.print(variable.type))`"
            if let value = variable.defaultValue { documentation += ", `\(Printer.print(value))` when left out" }
            writer.documentation(documentation + ".")
            writer.line("\(access)var \(property): \(swiftType)")
            var parameter = "\(SwiftNames.parameter(variable.variable.name.value).label): \(swiftType)"
            if swiftType.hasSuffix("?") {
                let fallback = variable.defaultValue.flatMap { literals.literal($0, reference: variable.type) }
                parameter += " = " + (fallback ?? "nil")
            }
            parameters.append(parameter)
        }
        writer.line()
        writer.line("/// Creates the operation with its variables; a `nil` variable is not sent.")
        writer.signature("\(access)init", parameters) { writer in
            for variable in variables {
                let name = variable.variable.name.value
                writer.line("self.\(SwiftNames.escaped(name)) = \(SwiftNames.parameter(name).value)")
            }
        }
    }
}
