import GraphQLLanguage

extension CodeGenerator {
    /// The documents with every fragment that an earlier document (file) defines the same way
    /// (the same printed text) left out: folders often repeat a fragment in each file that
    /// spreads it, and it becomes one Swift type. A fragment defined differently under the same
    /// name, or twice in one file, stays, for validation to report.
    static func withoutRepeatedFragments(_ documents: [Document]) -> [Document] {
        var first: [String: (definition: Definition, document: Int)] = [:]
        return documents.enumerated().map { index, document in
            var kept = document
            kept.definitions = document.definitions.filter { definition in
                guard case .fragment(let fragment) = definition else { return true }
                guard let earlier = first[fragment.name.value] else {
                    first[fragment.name.value] = (definition, index)
                    return true
                }
                return earlier.document == index || Printer.print(earlier.definition) != Printer.print(definition)
            }
            return kept
        }
    }

    /// The errors of the documents as one unit, except that the lone anonymous operation rule
    /// holds per document (per file), in the order of the files and of the positions in them.
    func validate(_ documents: [Document]) -> [Diagnostic] {
        let rules = ValidationRule.allCases.filter { $0 != .noUnusedFragments && $0 != .loneAnonymousOperation }
        let perFile = Validator(schema: schema, rules: [.loneAnonymousOperation])
        let found = documents.flatMap { perFile.validate($0) }
            + Validator(schema: schema, rules: rules).validate(documents)
        let errors = found.filter { $0.severity == .error }
        var order: [String: Int] = [:]
        for (index, document) in documents.enumerated() {
            if let name = document.source?.name, order[name] == nil { order[name] = index }
        }
        // Sorted by file and offset; a diagnostic without a place keeps its turn after those with one.
        func key(_ diagnostic: Diagnostic) -> (Int, Int) {
            guard let first = diagnostic.locations.first else { return (Int.max, 0) }
            return (first.source.flatMap { order[$0.name] } ?? Int.max, first.offset)
        }
        return errors.enumerated().sorted { left, right in
            let (a, b) = (key(left.element), key(right.element))
            return a != b ? a < b : left.offset < right.offset
        }.map(\.element)
    }
}
