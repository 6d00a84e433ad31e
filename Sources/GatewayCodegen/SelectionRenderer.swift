import GraphQLLanguage

/// Writes a ``SelectionModel`` as a `Decodable` struct with nested structs for its fields'
/// selections and its type conditions.
struct SelectionRenderer {
    let names: GeneratedNames
    /// The modules the written code needs for mapped scalar types.
    private(set) var modules: Set<String> = []

    init(names: GeneratedNames) {
        self.names = names
    }

    private struct Property {
        var name: String
        var type: String
        var documentation: String?
        /// How the custom initializer sets it: `nil` for a field decoded from the container.
        var decoding: String?
        var key: String
    }

    /// Writes `model` as `struct name`.
    mutating func render(
        _ name: String, model: SelectionModel, documentation: String?, into writer: inout SwiftWriter
    ) {
        var takenProperties = Set(model.fields.map(\.responseKey))
        var takenTypes = names.reserved.union(takenProperties)
        var properties: [Property] = []
        var children: [(String, SelectionModel, String)] = []
        let access = names.access
        let typename = model.fields.first { $0.responseKey == "__typename" && !$0.isConditional }
            .map { _ in "self.__typename" }

        for field in model.fields {
            var named: String
            if let selection = field.selection {
                let base = field.type.listDepth > 0 ? SwiftNames.singular(field.responseKey) : field.responseKey
                named = SwiftNames.unique(SwiftNames.upperFirst(base), in: &takenTypes)
                children.append((named, selection, "The selections of `\(field.responseKey)`."))
            } else {
                let leaf = names.schema.namedType(of: field.type).name
                named = names.leafType(leaf, inResponse: true)
                if let module = names.module(forLeaf: leaf) { modules.insert(module) }
            }
            var type = names.swiftType(field.type, named: named)
            if field.isConditional, !type.hasSuffix("?") { type += "?" }
            properties.append(Property(
                name: field.responseKey, type: type,
                documentation: field.responseKey == "__typename" ? "The object's type name." : field.description,
                decoding: nil,
                key: field.responseKey))
        }
        for fragment in model.fragments {
            let typeName = names.fragments[fragment.name] ?? fragment.name
            let property = SwiftNames.unique(SwiftNames.lowerCamel(typeName), in: &takenProperties)
            let attempt = fragment.isConditional
                ? "(try? \(typeName)(from: decoder))" : "try \(typeName)(from: decoder)"
            var decoding = attempt
            var type = typeName
            if let typeNames = fragment.typeNames {
                decoding = Self.when(
                    typeNames, typename, attempt, typeName: typeName, conditional: fragment.isConditional)
                type += "?"
            } else if fragment.isConditional {
                type += "?"
            }
            properties.append(Property(
                name: property, type: type, documentation: "The fragment `\(fragment.name)`.", decoding: decoding,
                key: property))
        }
        for condition in model.conditions {
            let upper = SwiftNames.upperFirst(condition.typeName)
            let property = SwiftNames.unique("as" + upper, in: &takenProperties)
            takenTypes.insert(property)
            let typeName = SwiftNames.unique("As" + upper, in: &takenTypes)
            children.append((typeName, condition.selection, "The selections on `\(condition.typeName)`."))
            let decoding = Self.when(
                condition.typeNames, typename, "try \(typeName)(from: decoder)", typeName: typeName, conditional: false)
            properties.append(Property(
                name: property, type: typeName + "?",
                documentation: "The selections on `\(condition.typeName)`, when the object is one.",
                decoding: decoding, key: property))
        }

        writer.documentation(documentation)
        writer.block("\(access)struct \(name): Decodable, Sendable {") { writer in
            for (index, property) in properties.enumerated() {
                if index > 0, property.documentation != nil { writer.line() }
                writer.documentation(property.documentation)
                writer.line("\(access)let \(SwiftNames.escaped(property.name)): \(property.type)")
            }
            if properties.contains(where: { $0.decoding != nil }) {
                writer.line()
                Self.initializer(properties, access: access, into: &writer)
            }
            for (childName, child, childDocumentation) in children {
                writer.line()
                render(childName, model: child, documentation: childDocumentation, into: &writer)
            }
        }
    }

    /// `try ["A", "B"].contains(self.__typename) ? X(from: decoder) : nil`.
    private static func when(
        _ typeNames: [String], _ typename: String?, _ attempt: String, typeName: String, conditional: Bool
    ) -> String {
        guard let typename else { return "nil" }
        let list = "[" + typeNames.map(SwiftNames.literal).joined(separator: ", ") + "]"
        if conditional { return "\(list).contains(\(typename)) ? \(attempt) : nil" }
        return "try \(list).contains(\(typename)) ? \(typeName)(from: decoder) : nil"
    }

    private static func initializer(_ properties: [Property], access: String, into writer: inout SwiftWriter) {
        let fields = properties.filter { $0.decoding == nil }
        writer.line("/// Decodes the fields, and the fragments and type conditions from the same object.")
        writer.block("\(access)init(from decoder: any Decoder) throws {") { writer in
            if !fields.isEmpty {
                writer.line("let container = try decoder.container(keyedBy: CodingKeys.self)")
            }
            for property in properties {
                let key = SwiftNames.escaped(property.name)
                let target = "self.\(key)"
                if let decoding = property.decoding {
                    writer.line("\(target) = \(decoding)")
                } else if property.type.hasSuffix("?") {
                    let base = String(property.type.dropLast())
                    writer.line("\(target) = try container.decodeIfPresent(\(base).self, forKey: .\(key))")
                } else {
                    writer.line("\(target) = try container.decode(\(property.type).self, forKey: .\(key))")
                }
            }
        }
        guard !fields.isEmpty else { return }
        writer.line()
        writer.block("private enum CodingKeys: String, CodingKey {") { writer in
            for field in fields {
                writer.line("case \(SwiftNames.escaped(field.name))")
            }
        }
    }
}
