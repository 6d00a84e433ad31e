/// The comparisons of graphql-js's algorithm, named after its functions. Every recursive call
/// carries a depth, and every field comparison counts against the budget; past either bound the
/// rule reports that it gave up and stops.
extension OverlappingFieldsCanBeMergedRule {
    /// Whether to stop: the budget is spent or the recursion is too deep (reported once).
    private static func shouldStop(depth: Int, in context: inout ValidationContext) -> Bool {
        if context.overlapping.gaveUp { return true }
        guard context.overlapping.comparisons > comparisonBudget || depth > 2 * context.limits.maxDepth else {
            return false
        }
        context.overlapping.gaveUp = true
        context.report(
            .selectionLimits,
            "Validation of overlapping fields stopped after \(comparisonBudget) comparisons or "
                + "\(2 * context.limits.maxDepth) levels of fragments; simplify the document.", []
        )
        return true
    }

    /// (A) Fields with the same response name within one set, every pair in graphql-js's order
    /// (see `OverlappingFieldsCanBeMergedRule+Pairs.swift`), until `conflicts` holds `limit`.
    static func collectConflictsWithin(
        _ map: Int, limit: Int, into conflicts: inout [Conflict], in context: inout ValidationContext
    ) {
        let collected = context.overlapping.collected[map]
        guard collected.hasRepeats else { return }
        for group in collected.groupNames.indices where collected.groupSize[group] > 1 {
            let members = collected.members(ofGroup: group)
            collectPairConflicts(
                collected.groupNames[group], left: (map, members), right: (map, members), within: true,
                exclusive: false, depth: 0, limit: limit, into: &conflicts, in: &context
            )
            if conflicts.count >= limit || context.overlapping.gaveUp { return }
        }
    }

    /// (D, F, H) Fields with the same response name in two sets, until `conflicts` holds `limit`.
    static func collectConflictsBetween(
        _ map1: Int, _ map2: Int, exclusive: Bool, limit: Int, into conflicts: inout [Conflict], depth: Int,
        in context: inout ValidationContext
    ) {
        let first = context.overlapping.collected[map1]
        let second = context.overlapping.collected[map2]
        for group in first.groupNames.indices {
            guard let other = second.group(named: first.groupNames[group]) else { continue }
            collectPairConflicts(
                first.groupNames[group], left: (map1, first.members(ofGroup: group)),
                right: (map2, second.members(ofGroup: other)), within: false, exclusive: exclusive, depth: depth,
                limit: limit, into: &conflicts, in: &context
            )
            if conflicts.count >= limit || context.overlapping.gaveUp { return }
        }
    }

    /// (B, E, I) A set of fields against a fragment and the fragments it spreads.
    static func collectConflictsBetweenFieldsAndFragment(
        _ map: Int, _ fragment: Int, exclusive: Bool, limit: Int, into conflicts: inout [Conflict], depth: Int,
        in context: inout ValidationContext
    ) {
        guard conflicts.count < limit, !shouldStop(depth: depth, in: &context) else { return }
        let fragmentMap = collect(fragment: fragment, in: &context)
        // Do not compare a fragment's fields with themselves.
        guard fragmentMap != map else { return }
        collectConflictsBetween(
            map, fragmentMap, exclusive: exclusive, limit: limit, into: &conflicts, depth: depth, in: &context
        )
        for referenced in context.overlapping.collected[fragmentMap].fragments {
            let key = pairKey(referenced, fragment)
            if let known = context.overlapping.comparedFragmentPairs[key], exclusive || known == exclusive { continue }
            context.overlapping.comparedFragmentPairs[key] = exclusive
            collectConflictsBetweenFieldsAndFragment(
                map, referenced, exclusive: exclusive, limit: limit, into: &conflicts, depth: depth + 1, in: &context
            )
        }
    }

    /// (C, G, J) Two fragments and the fragments they spread, each pair once.
    static func collectConflictsBetweenFragments(
        _ fragment1: Int, _ fragment2: Int, exclusive: Bool, limit: Int, into conflicts: inout [Conflict], depth: Int,
        in context: inout ValidationContext
    ) {
        guard fragment1 != fragment2, conflicts.count < limit, !shouldStop(depth: depth, in: &context) else { return }
        let key = pairKey(fragment1, fragment2)
        if let known = context.overlapping.comparedFragmentPairs[key], exclusive || known == exclusive { return }
        context.overlapping.comparedFragmentPairs[key] = exclusive
        let map1 = collect(fragment: fragment1, in: &context)
        let map2 = collect(fragment: fragment2, in: &context)
        collectConflictsBetween(
            map1, map2, exclusive: exclusive, limit: limit, into: &conflicts, depth: depth, in: &context
        )
        for referenced in context.overlapping.collected[map2].fragments {
            collectConflictsBetweenFragments(
                fragment1, referenced, exclusive: exclusive, limit: limit, into: &conflicts, depth: depth + 1,
                in: &context
            )
        }
        for referenced in context.overlapping.collected[map1].fragments {
            collectConflictsBetweenFragments(
                referenced, fragment2, exclusive: exclusive, limit: limit, into: &conflicts, depth: depth + 1,
                in: &context
            )
        }
    }

    /// An unordered pair of fragment indices as one key.
    private static func pairKey(_ first: Int, _ second: Int) -> UInt64 {
        let (low, high) = first < second ? (first, second) : (second, first)
        return UInt64(truncatingIfNeeded: low) << 32 | UInt64(truncatingIfNeeded: high)
    }

    /// Whether two fields under one response name conflict, their sub-fields included.
    static func findConflict(
        _ responseName: String, _ entry1: FieldEntry, _ entry2: FieldEntry, parentsExclusive: Bool, depth: Int,
        in context: inout ValidationContext
    ) -> Conflict? {
        context.overlapping.comparisons += 1
        let schema = context.schema
        // Different object types never apply to the same value, so their fields may differ freely.
        let exclusive = parentsExclusive
            || (entry1.parentType != entry2.parentType && entry1.parentType >= 0 && entry2.parentType >= 0
                && schema.kind(entry1.parentType) == .object && schema.kind(entry2.parentType) == .object)
        let place1 = entry1.place
        let place2 = entry2.place
        if !exclusive {
            let name1 = context.overlapping.fields[entry1.field].name.value
            let name2 = context.overlapping.fields[entry2.field].name.value
            if name1 != name2 {
                return Conflict(responseName: responseName,
                                reason: .message("\"\(name1)\" and \"\(name2)\" are different fields"),
                                fields1: [place1], fields2: [place2])
            }
            if !sameArguments(
                context.overlapping.fields[entry1.field].arguments, context.overlapping.fields[entry2.field].arguments
            ) {
                return Conflict(responseName: responseName, reason: .message("they have differing arguments"),
                                fields1: [place1], fields2: [place2])
            }
        }
        if let type1 = entry1.type, let type2 = entry2.type, typesConflict(type1, type2, schema) {
            return Conflict(
                responseName: responseName,
                reason: .message("they return conflicting types \"\(schema.name(of: type1))\" and "
                    + "\"\(schema.name(of: type2))\""),
                fields1: [place1], fields2: [place2]
            )
        }
        guard entry1.hasSelections, entry2.hasSelections,
            let set1 = context.overlapping.fields[entry1.field].selectionSet,
            let set2 = context.overlapping.fields[entry2.field].selectionSet,
            !shouldStop(depth: depth + 1, in: &context)
        else { return nil }
        let map1 = collect(set1, parentType: entry1.type?.namedIndex ?? -1, document: entry1.document, in: &context)
        let map2 = collect(set2, parentType: entry2.type?.namedIndex ?? -1, document: entry2.document, in: &context)
        let conflicts = conflictsBetweenSubSelectionSets(
            map1, map2, exclusive: exclusive, depth: depth + 1, in: &context
        )
        guard !conflicts.isEmpty else { return nil }
        return Conflict(
            responseName: responseName, reason: .subfields(conflicts.map { ($0.responseName, $0.reason) }),
            fields1: [place1] + conflicts.flatMap(\.fields1), fields2: [place2] + conflicts.flatMap(\.fields2)
        )
    }

    /// (H, I, J) The conflicts between the sub-selections of two fields, as many as the error
    /// limit allows (they all become one error's reason).
    private static func conflictsBetweenSubSelectionSets(
        _ map1: Int, _ map2: Int, exclusive: Bool, depth: Int, in context: inout ValidationContext
    ) -> [Conflict] {
        let limit = max(1, context.limits.maxErrors)
        var conflicts: [Conflict] = []
        collectConflictsBetween(
            map1, map2, exclusive: exclusive, limit: limit, into: &conflicts, depth: depth, in: &context
        )
        let fragments1 = context.overlapping.collected[map1].fragments
        let fragments2 = context.overlapping.collected[map2].fragments
        for fragment in fragments2 where conflicts.count < limit {
            collectConflictsBetweenFieldsAndFragment(
                map1, fragment, exclusive: exclusive, limit: limit, into: &conflicts, depth: depth, in: &context
            )
        }
        for fragment in fragments1 where conflicts.count < limit {
            collectConflictsBetweenFieldsAndFragment(
                map2, fragment, exclusive: exclusive, limit: limit, into: &conflicts, depth: depth, in: &context
            )
        }
        for fragment1 in fragments1 {
            for fragment2 in fragments2 where conflicts.count < limit {
                collectConflictsBetweenFragments(
                    fragment1, fragment2, exclusive: exclusive, limit: limit, into: &conflicts, depth: depth,
                    in: &context
                )
            }
        }
        return conflicts
    }

    /// graphql-js `sameArguments`: the same names with values that print the same once sorted.
    static func sameArguments(_ arguments1: [Argument], _ arguments2: [Argument]) -> Bool {
        if arguments1.isEmpty { return arguments2.isEmpty }
        guard arguments1.count == arguments2.count else { return false }
        for argument in arguments1 {
            guard let other = arguments2.last(where: { $0.name.value == argument.name.value }),
                ValuePrinter.same(argument.value, other.value)
            else { return false }
        }
        return true
    }

    /// graphql-js `doTypesConflict`: list and non-null wrappers must match, and leaf types must be equal.
    static func typesConflict(_ first: Schema.TypeRef, _ second: Schema.TypeRef, _ schema: Schema) -> Bool {
        var a = first
        var b = second
        while true {
            let aList = !a.isNonNull && a.isList
            let bList = !b.isNonNull && b.isList
            if aList || bList {
                guard aList, bList, let aItem = a.listItem, let bItem = b.listItem else { return true }
                a = aItem
                b = bItem
                continue
            }
            if a.isNonNull || b.isNonNull {
                guard a.isNonNull, b.isNonNull else { return true }
                a = a.nullable
                b = b.nullable
                continue
            }
            if schema.kind(a.namedIndex).isLeaf || schema.kind(b.namedIndex).isLeaf {
                return a.namedIndex != b.namedIndex
            }
            return false
        }
    }
}
