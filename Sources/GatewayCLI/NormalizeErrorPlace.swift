import GraphQLLanguage

/// Where `gateway normalize` points for a document that cannot be normalized: the spread of an
/// unknown fragment, the second definition of a duplicated name, or else the file.
enum NormalizeErrorPlace {
    /// `path:line:column` of the node the error is about, or `path` when there is none.
    static func place(
        of error: OperationSelectionError, in document: Document, path: String, folder: FolderFragments
    ) -> String {
        switch error {
        case .unknownFragment(let name, let user):
            for definition in document.definitions {
                switch definition {
                case .operation(let operation) where operation.name?.value == user:
                    if let offset = spreadOffset(of: name, in: operation.selectionSet) {
                        return located(path, document.source, offset)
                    }
                case .fragment(let fragment) where fragment.name.value == user:
                    if let offset = spreadOffset(of: name, in: fragment.selectionSet) {
                        return located(path, document.source, offset)
                    }
                default: break
                }
            }
            for (fragment, source) in folder.fragments where fragment.name.value == user {
                if let offset = spreadOffset(of: name, in: fragment.selectionSet) {
                    return located(source.name, source, offset)
                }
            }
        case .duplicateOperation(let name):
            let offsets = document.definitions.compactMap { definition -> Int? in
                guard case .operation(let operation) = definition, operation.name?.value == name else { return nil }
                return operation.range.start
            }
            if offsets.count > 1 { return located(path, document.source, offsets[1]) }
        case .duplicateFragment(let name):
            let offsets = document.definitions.compactMap { definition -> Int? in
                guard case .fragment(let fragment) = definition, fragment.name.value == name else { return nil }
                return fragment.range.start
            }
            if offsets.count > 1 { return located(path, document.source, offsets[1]) }
        default: break
        }
        return path
    }

    private static func located(_ path: String, _ source: Source?, _ offset: Int) -> String {
        guard let source else { return path }
        let location = source.location(at: offset)
        return "\(path):\(location.line):\(location.column)"
    }

    /// The offset of a spread of `name` in a selection set, nested ones included.
    private static func spreadOffset(of name: String, in selectionSet: SelectionSet) -> Int? {
        var pending = [selectionSet]
        while let set = pending.popLast() {
            for selection in set.selections {
                switch selection {
                case .fragmentSpread(let spread) where spread.name.value == name: return spread.range.start
                case .fragmentSpread: break
                case .field(let field): if let nested = field.selectionSet { pending.append(nested) }
                case .inlineFragment(let inline): pending.append(inline.selectionSet)
                }
            }
        }
        return nil
    }
}
