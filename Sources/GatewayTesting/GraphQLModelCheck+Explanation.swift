import Foundation
import GraphQLLanguage

extension GraphQLModelCheck {
    /// Where a decoding error's coding path leads in the selection.
    enum Place {
        /// A level of a field's value.
        case field(Int, level: Int)
        /// A key the query does not select on the object type the field at `parent` holds.
        case unselected(key: String, parent: Int, caseIndex: Int)
        /// Somewhere the selection does not describe.
        case unknown
    }

    /// Follows a coding path through the response of `variation`.
    func place(of path: [any CodingKey], in variation: Variation) -> Place {
        var field = 0
        var level = 0
        for key in path {
            let current = selection.fields[field]
            if current.levels[level].isList, key.intValue != nil {
                level += 1
                continue
            }
            // Past a leaf (a model that decodes a scalar through a container): stay at the leaf.
            guard current.leaf == nil, level == current.levels.count - 1 else { return .field(field, level: level) }
            let caseIndex = variation.cases[field] ?? 0
            guard current.cases.indices.contains(caseIndex) else { return .unknown }
            let children = current.cases[caseIndex].fields
            let name = key.stringValue
            guard let child = children.first(where: { selection.fields[$0].responseKey == name })
                ?? children.first(where: { Self.camelCase(selection.fields[$0].responseKey) == name })
            else { return .unselected(key: name, parent: field, caseIndex: caseIndex) }
            field = child
            level = 0
        }
        return .field(field, level: level)
    }

    /// A coding path as the model's property path: `GetTrack.track.artists[0].name`.
    func propertyPath(_ path: [any CodingKey]) -> String {
        var text = operationName
        for key in path {
            if let index = key.intValue, key.stringValue == "Index \(index)" || key.stringValue == "\(index)" {
                text += "[\(index)]"
            } else {
                text += "." + key.stringValue
            }
        }
        return text
    }

    /// Explains why decoding a variation failed, in the query's terms.
    func explain(_ error: any Error, in variation: Variation) -> Problem {
        guard let decodingError = error as? DecodingError else {
            return Problem(path: operationName, message: "the model threw \"\(error)\" for "
                + describe(variation.change, operation: operationName))
        }
        let path: [any CodingKey]
        let context: DecodingError.Context
        switch decodingError {
        case .keyNotFound(let key, let found):
            path = found.codingPath + [key]
            context = found
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .dataCorrupted(let found):
            path = found.codingPath
            context = found
        @unknown default:
            return Problem(path: operationName, message: "the model cannot decode "
                + describe(variation.change, operation: operationName) + ": \(decodingError)")
        }
        let place = place(of: path, in: variation)
        return Problem(path: propertyPath(path),
                       message: reason(decodingError, at: place, context: context, variation: variation))
    }

    private func reason(
        _ error: DecodingError, at place: Place, context: DecodingError.Context, variation: Variation
    ) -> String {
        let detail = context.debugDescription
        switch place {
        case .unknown:
            return "the model cannot decode " + describe(variation.change, operation: operationName) + ": \(detail)"
        case .unselected(let key, let parent, let caseIndex):
            let fields = selection.fields[parent].cases[caseIndex]
            let selected = fields.fields.map { selection.fields[$0].responseKey }
            let list = selected.isEmpty ? "nothing" : selected.joined(separator: ", ")
            let inSchema = schema.type(named: fields.typeName)?.field(named: key) != nil || key == "__typename"
            // An interface or union whose other object types have the key.
            let others = selection.fields[parent].cases.filter { other in
                other.fields.contains { selection.fields[$0].responseKey == key }
            }.map(\.typeName)
            let elsewhere = others.isEmpty ? "" : "; it selects \"\(key)\" on \(others.joined(separator: ", ")) only"
            let reason = inSchema
                ? "the model decodes \"\(key)\" but the query does not select it on \(fields.typeName) "
                    + "(it selects \(list))\(elsewhere); select the field, or make the property optional"
                : "the model decodes \"\(key)\" but \(fields.typeName) has no such field "
                    + "(the query selects \(list))\(elsewhere); remove the property, or make it optional"
            return whenCase(variation, inside: parent) + reason
        case .field(let index, let level):
            let field = selection.fields[index]
            if let own = ownReason(error, field: index, level: level, variation: variation) { return own }
            // A model that reads `__typename` and rejects the object type the variation chose.
            if field.name == "__typename", case .typeCase(let changed, _) = variation.change,
               field.parent?.field == changed,
               let own = ownReason(error, field: changed, level: selection.fields[changed].levels.count - 1,
                                   variation: variation) {
                return own
            }
            return whenCase(variation, inside: field.parent?.field) + plainReason(error, field: field, level: level)
        }
    }

    /// The reason when the failure is the change the variation makes, at the field it changes.
    private func ownReason(_ error: DecodingError, field index: Int, level: Int, variation: Variation) -> String? {
        let field = selection.fields[index]
        switch (variation.change, error) {
        case (.null(index, let nullLevel), .valueNotFound(let type, _)) where nullLevel == level,
             (.null(index, let nullLevel), .typeMismatch(let type, _)) where nullLevel == level:
            let model = Self.swiftName(type).map { "the model's \($0)" }
            if level == 0 {
                return "the query selects \(field.selectedText) (nullable) but \(model ?? "the model's property") "
                    + "is not optional"
            }
            return "the query selects \(field.selectedText), whose items can be null, but "
                + "\(model ?? "the model's items") \(model == nil ? "are" : "is") not optional"
        case (.absent(index), .keyNotFound):
            return "the query selects \(field.selectedText) only \(field.condition ?? "conditionally"), so the "
                + "response can leave it out, but the model's property is not optional"
        case (.empty(index, _), _):
            return "the response can hold an empty list for \(field.selectedText) but the model cannot decode it: "
                + error.detail
        case (.enumValue(index, let value), _):
            guard case .enumeration(let values) = field.leaf, values.indices.contains(value) else { return nil }
            return "the response can hold \"\(values[value])\" for \(field.selectedText) (\(field.namedType) is one "
                + "of \(values.joined(separator: ", "))) but the model cannot decode it: \(error.detail)"
        case (.typeCase(index, let value), _) where level == field.levels.count - 1:
            return "the response can hold a \(field.cases[value].typeName) here (\(field.namedType) is one of "
                + "\(field.cases.map(\.typeName).joined(separator: ", "))) but the model cannot decode it: "
                + error.detail
        default:
            return nil
        }
    }

    /// "when "search" holds a Release (…), " for a failure inside the object type the variation
    /// chose: in the object `holder` holds, or deeper.
    private func whenCase(_ variation: Variation, inside holder: Int?) -> String {
        guard case .typeCase(let changed, let value) = variation.change else { return "" }
        var current = holder
        while let index = current, index != changed { current = selection.fields[index].parent?.field }
        guard current != nil else { return "" }
        let abstract = selection.fields[changed]
        return "when \"\(abstract.responseKey)\" holds a \(abstract.cases[value].typeName) (\(abstract.namedType) is "
            + "one of \(abstract.cases.map(\.typeName).joined(separator: ", "))), "
    }

    /// The reason for a failure the base response shows as well: a type the model gets wrong.
    private func plainReason(_ error: DecodingError, field: SelectedField, level: Int) -> String {
        let shape = field.levels[level]
        let held: String
        if shape.isList {
            held = "a list"
        } else if let leaf = field.leaf {
            switch leaf {
            case .enumeration(let values): held = "the \(field.namedType) value \"\(values.first ?? "")\""
            case .scalar(let name) where scalars[name] == nil && !Self.builtInScalars.contains(name):
                held = "the custom scalar \(name), synthesized as \(scalarValue(name).serialized(.compact)); "
                    + "give it a representative value with scalars: [\"\(name)\": …]"
            case .scalar(let name): held = "the \(name) \(scalarValue(name).serialized(.compact))"
            }
        } else {
            held = "an object"
        }
        switch error {
        case .typeMismatch(let type, _):
            let model = Self.swiftName(type) ?? (String(describing: type).contains("Array") ? "list" : "object")
            return "the query selects \(field.selectedText) but the model's \(model) cannot decode \(held)"
        case .dataCorrupted(let context):
            return "the query selects \(field.selectedText) but the model cannot decode \(held): "
                + context.debugDescription
        default:
            return "the query selects \(field.selectedText) but the model cannot decode \(held): \(error.detail)"
        }
    }

    static let builtInScalars: Set<String> = ["String", "Int", "Float", "Boolean", "ID"]

    /// A Swift type's name for a message; `nil` for the containers the decoder names instead of a
    /// model type (`Dictionary<String, Any>`, `Array<Any>`, a decoding container).
    static func swiftName(_ type: Any.Type) -> String? {
        let name = String(describing: type)
        if name.contains("Any") || name.contains("DecodingContainer") { return nil }
        return name
    }

    /// A response key as `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase` turns it into a
    /// property name.
    static func camelCase(_ key: String) -> String {
        let parts = key.split(separator: "_", omittingEmptySubsequences: true)
        guard parts.count > 1, let first = parts.first else { return key }
        let rest = parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
        return String(first) + rest.joined()
    }
}

extension DecodingError {
    /// What the decoder said.
    var detail: String {
        switch self {
        case .keyNotFound(let key, let context):
            "no value for \"\(key.stringValue)\" (\(context.debugDescription))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.debugDescription
        @unknown default:
            "\(self)"
        }
    }
}
