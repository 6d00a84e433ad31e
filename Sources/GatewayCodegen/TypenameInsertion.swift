import GraphQLLanguage

/// Adds `__typename` to every selection set whose type is an interface or a union, at the
/// level of the field or fragment that selects it, so the generated types can tell which type
/// conditions a response object meets. A set that already selects `__typename` without alias
/// or directives is left as written.
struct TypenameInsertion {
    let schema: Schema

    func adding(to operation: OperationDefinition) -> OperationDefinition {
        var operation = operation
        let root = schema.rootType(for: operation.operation)?.name ?? ""
        operation.selectionSet = walk(operation.selectionSet, typeName: root, top: false)
        return operation
    }

    func adding(to fragment: FragmentDefinition) -> FragmentDefinition {
        var fragment = fragment
        fragment.selectionSet = walk(fragment.selectionSet, typeName: fragment.typeCondition.name.value, top: true)
        return fragment
    }

    /// `set` with its fields' sets walked; `top` when `set` is a field's or fragment's own set.
    private func walk(_ set: SelectionSet, typeName: String, top: Bool) -> SelectionSet {
        var set = set
        for index in set.selections.indices {
            switch set.selections[index] {
            case .field(var field):
                guard let inner = field.selectionSet else { continue }
                let fieldType = schema.type(named: typeName)?.field(named: field.name.value)?.type
                let innerName = fieldType.map { schema.namedType(of: $0).name } ?? ""
                field.selectionSet = walk(inner, typeName: innerName, top: true)
                set.selections[index] = .field(field)
            case .inlineFragment(var inline):
                let condition = inline.typeCondition?.name.value ?? typeName
                inline.selectionSet = walk(inline.selectionSet, typeName: condition, top: false)
                set.selections[index] = .inlineFragment(inline)
            case .fragmentSpread:
                continue
            }
        }
        guard top, schema.type(named: typeName)?.kind.isAbstract == true else { return set }
        let selectsTypename = set.selections.contains { selection in
            guard case .field(let field) = selection else { return false }
            return field.name.value == "__typename" && field.alias == nil && field.directives.isEmpty
        }
        if !selectsTypename {
            set.selections.insert(.field(Field(name: Name("__typename"))), at: 0)
        }
        return set
    }
}
