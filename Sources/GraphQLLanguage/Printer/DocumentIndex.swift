/// The parts of a document that selecting an operation needs, found in one pass over its
/// definitions: the operation, and where each fragment is.
///
/// Fragments are found by comparing names in a small list; a dictionary is built on first use once
/// a document has more than 16 fragments.
struct DocumentIndex {
    let definitions: [Definition]
    /// The selected operation.
    let operation: OperationDefinition
    /// Each fragment's name and the index of its definition, in document order.
    private var fragments: [(name: String, index: Int)] = []
    /// Name → index of the definition, or -1 when the name is defined more than once.
    private var byName: [String: Int]?

    /// Indexes `document` and selects the operation named `operationName` (or the only one).
    /// - Throws: ``OperationSelectionError`` when the operation cannot be selected.
    init(_ document: Document, operationName: String?) throws(OperationSelectionError) {
        definitions = document.definitions
        var match: OperationDefinition?
        var operationCount = 0
        var duplicate = false
        for index in definitions.indices {
            switch definitions[index] {
            case .operation(let candidate):
                operationCount += 1
                if let operationName {
                    guard candidate.name?.value == operationName else { continue }
                    if match != nil { duplicate = true }
                    match = candidate
                } else if match == nil {
                    match = candidate
                }
            case .fragment(let fragment):
                fragments.append((fragment.name.value, index))
            default:
                continue
            }
        }
        if let match, !duplicate, operationName != nil || operationCount == 1 {
            operation = match
            return
        }
        throw Self.selectionError(in: definitions, operationName: operationName, duplicate: duplicate)
    }

    private static func selectionError(
        in definitions: [Definition], operationName: String?, duplicate: Bool
    ) -> OperationSelectionError {
        let names = definitions.compactMap { definition -> String?? in
            guard case .operation(let operation) = definition else { return nil }
            return .some(operation.name?.value)
        }
        if names.isEmpty { return .noOperation }
        guard let operationName else { return .operationNameRequired(available: names) }
        return duplicate ? .duplicateOperation(operationName) : .unknownOperation(operationName, available: names)
    }

    /// The fragment named `name` and its index among the document's definitions.
    /// - Throws: ``OperationSelectionError/unknownFragment(_:usedBy:)`` or
    ///   ``OperationSelectionError/duplicateFragment(_:)``.
    mutating func fragment(
        named name: String, usedBy user: String?
    ) throws(OperationSelectionError) -> (definition: FragmentDefinition, index: Int) {
        var found = -1
        if fragments.count > 16 {
            if byName == nil {
                var table: [String: Int] = [:]
                for entry in fragments where table.updateValue(entry.index, forKey: entry.name) != nil {
                    table[entry.name] = -1
                }
                byName = table
            }
            guard let index = byName?[name] else { throw .unknownFragment(name, usedBy: user) }
            guard index >= 0 else { throw .duplicateFragment(name) }
            found = index
        } else {
            for entry in fragments where entry.name == name {
                if found >= 0 { throw .duplicateFragment(name) }
                found = entry.index
            }
            guard found >= 0 else { throw .unknownFragment(name, usedBy: user) }
        }
        guard case .fragment(let fragment) = definitions[found] else { throw .unknownFragment(name, usedBy: user) }
        return (fragment, found)
    }
}
