/// The rules that need the whole unit, and the diagnostics.
extension ValidationContext {
    /// Runs the rules that look at every operation with the fragments it reaches: unused
    /// fragments, and variables defined, used and used in allowed positions.
    mutating func finish() {
        guard !aborted else { return }
        let checksFragments = isEnabled(.noUnusedFragments)
        let checksVariables = isEnabled(.noUndefinedVariables) || isEnabled(.noUnusedVariables)
            || isEnabled(.variablesInAllowedPosition)
        guard checksFragments || checksVariables else { return }
        var usedFragments = Array(repeating: false, count: fragments.count)
        for operation in operations.indices {
            let referenced = recursivelyReferencedFragments(operation)
            if checksFragments {
                for fragment in referenced { usedFragments[fragment] = true }
            }
            guard checksVariables else { continue }
            var usages = usagesOfOperation[operation]
            for fragment in referenced { usages += usagesOfFragment[fragment] }
            if isEnabled(.noUndefinedVariables) {
                NoUndefinedVariablesRule.finish(operation: operation, usages: usages, in: &self)
            }
            if isEnabled(.noUnusedVariables) {
                NoUnusedVariablesRule.finish(operation: operation, usages: usages, in: &self)
            }
            if isEnabled(.variablesInAllowedPosition) {
                VariablesInAllowedPositionRule.finish(operation: operation, usages: usages, in: &self)
            }
        }
        if checksFragments { NoUnusedFragmentsRule.finish(usedFragments: usedFragments, in: &self) }
    }

    /// The problems found, as diagnostics in document order (by their first location); the
    /// error-limit message, which has no location, comes last.
    func diagnostics() -> [Diagnostic] {
        var locator = SourceLocator(documents: documents)
        let errors = self.errors
        let order = errors.indices.sorted { first, second in
            let a = errors[first].places.first
            let b = errors[second].places.first
            switch (a, b) {
            case (nil, nil): return first < second
            case (nil, _): return false
            case (_, nil): return true
            case (let a?, let b?):
                if a.document != b.document { return a.document < b.document }
                let ends = (errors[first].endsDocument, errors[second].endsDocument)
                if ends.0 != ends.1 { return ends.1 }
                if a.offset != b.offset { return a.offset < b.offset }
                return first < second
            }
        }
        return order.map { index in
            let error = errors[index]
            let locations = error.places.map { locator.location(document: $0.document, offset: $0.offset) }
            return Diagnostic(message: error.message, locations: locations, rule: error.rule?.name)
        }
    }
}
