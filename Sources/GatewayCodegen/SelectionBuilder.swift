import GraphQLLanguage

/// Builds ``SelectionModel``s from validated selection sets.
struct SelectionBuilder {
    let schema: Schema
    let fragments: [String: FragmentDefinition]
    /// The enums the selections read, by schema name.
    private(set) var enumsUsed: Set<String> = []

    init(schema: Schema, fragments: [String: FragmentDefinition]) {
        self.schema = schema
        self.fragments = fragments
    }

    /// The model of `sets`, all applying to `typeName`; each set with whether a directive may
    /// leave it out.
    mutating func model(typeName: String, sets: [(SelectionSet, Bool)]) -> SelectionModel {
        let kind = schema.type(named: typeName)?.kind
        let model = SelectionModel(
            typeName: typeName, isAbstract: kind?.isAbstract ?? false,
            possibleTypes: schema.possibleTypeNames(of: typeName))
        var collected = Collected()
        for (set, conditional) in sets {
            collect(set, scopeType: typeName, conditional: conditional, into: &collected, model: model)
        }
        let readsTypename = collected.fields.contains { $0.responseKey == "__typename" && !$0.isConditional }
        if model.isAbstract, !readsTypename {
            collected.fields.removeAll { $0.responseKey == "__typename" }
            collected.fields.insert(
                Collected.Field(
                    responseKey: "__typename", fieldName: "__typename", scopeType: typeName, isConditional: false,
                    sets: []),
                at: 0)
        }
        for entry in collected.fields {
            guard let type = fieldType(entry.fieldName, in: typeName) ?? fieldType(entry.fieldName, in: entry.scopeType)
            else { continue }
            var child: SelectionModel?
            if !entry.sets.isEmpty {
                child = self.model(typeName: schema.namedType(of: type).name, sets: entry.sets)
            } else if schema.namedType(of: type).kind == .enum {
                enumsUsed.insert(schema.namedType(of: type).name)
            }
            model.fields.append(FieldSelection(
                responseKey: entry.responseKey, type: type,
                description: description(entry.fieldName, in: entry.scopeType),
                isConditional: entry.isConditional, selection: child))
        }
        model.fragments = collected.fragments
        for condition in collected.conditions {
            let names = schema.possibleTypeNames(of: condition.typeName).filter(model.possibleTypes.contains)
            model.conditions.append(TypeCondition(
                typeName: condition.typeName, typeNames: names,
                selection: self.model(typeName: condition.typeName, sets: condition.sets)))
        }
        return model
    }

    private struct Collected {
        struct Field {
            var responseKey: String
            var fieldName: String
            /// The type the field was selected on: the model's, or a type condition covering it.
            var scopeType: String
            var isConditional: Bool
            var sets: [(SelectionSet, Bool)]
        }
        struct Condition {
            var typeName: String
            var sets: [(SelectionSet, Bool)]
        }
        var fields: [Field] = []
        var fragments: [FragmentUse] = []
        var conditions: [Condition] = []
    }

    private func collect(
        _ set: SelectionSet, scopeType: String, conditional: Bool, into collected: inout Collected,
        model: SelectionModel
    ) {
        for selection in set.selections {
            let isConditional = conditional || Self.mayBeLeftOut(selection.directives)
            switch selection {
            case .field(let field):
                let key = field.responseKey
                let sets = field.selectionSet.map { [($0, false)] } ?? []
                if let index = collected.fields.firstIndex(where: { $0.responseKey == key }) {
                    collected.fields[index].isConditional = collected.fields[index].isConditional && isConditional
                    collected.fields[index].sets += sets
                } else {
                    collected.fields.append(Collected.Field(
                        responseKey: key, fieldName: field.name.value, scopeType: scopeType,
                        isConditional: isConditional, sets: sets))
                }
            case .inlineFragment(let inline):
                let condition = inline.typeCondition?.name.value ?? model.typeName
                if applies(condition, toAllOf: model) {
                    collect(
                        inline.selectionSet, scopeType: condition, conditional: isConditional, into: &collected,
                        model: model)
                } else if let index = collected.conditions.firstIndex(where: { $0.typeName == condition }) {
                    collected.conditions[index].sets.append((inline.selectionSet, isConditional))
                } else {
                    collected.conditions.append(Collected.Condition(
                        typeName: condition, sets: [(inline.selectionSet, isConditional)]))
                }
            case .fragmentSpread(let spread):
                let name = spread.name.value
                guard let definition = fragments[name] else { continue }
                let condition = definition.typeCondition.name.value
                let always = applies(condition, toAllOf: model)
                let names = always ? nil : schema.possibleTypeNames(of: condition).filter(model.possibleTypes.contains)
                if let index = collected.fragments.firstIndex(where: { $0.name == name }) {
                    collected.fragments[index].isConditional = collected.fragments[index].isConditional && isConditional
                } else {
                    collected.fragments.append(FragmentUse(name: name, typeNames: names, isConditional: isConditional))
                }
            }
        }
    }

    /// Whether every value of the model's type also has type `condition`.
    private func applies(_ condition: String, toAllOf model: SelectionModel) -> Bool {
        if condition == model.typeName { return true }
        let covered = Set(schema.possibleTypeNames(of: condition))
        return !model.possibleTypes.isEmpty && model.possibleTypes.allSatisfy(covered.contains)
    }

    /// Whether `@include`, `@skip` or `@defer` may leave the selection out of the response.
    static func mayBeLeftOut(_ directives: [Directive]) -> Bool {
        directives.contains { ["include", "skip", "defer"].contains($0.name.value) }
    }

    /// The type of a field, the meta-fields included.
    func fieldType(_ name: String, in typeName: String) -> Schema.TypeRef? {
        switch name {
        case "__typename": return stringType
        case "__schema": return schema.type(named: "__Schema").flatMap { _ in namedRef("__Schema", nonNull: true) }
        case "__type": return namedRef("__Type", nonNull: false)
        default: return schema.type(named: typeName)?.field(named: name)?.type
        }
    }

    private var stringType: Schema.TypeRef? { namedRef("String", nonNull: true) }

    private func namedRef(_ name: String, nonNull: Bool) -> Schema.TypeRef? {
        let reference = TypeReference.named(NamedType(name: Name(name)))
        let ref = schema.typeRef(nonNull ? .nonNull(NonNullType(type: reference)) : reference)
        return ref
    }

    private func description(_ name: String, in typeName: String) -> String? {
        name.hasPrefix("__") ? nil : schema.type(named: typeName)?.field(named: name)?.description
    }
}
