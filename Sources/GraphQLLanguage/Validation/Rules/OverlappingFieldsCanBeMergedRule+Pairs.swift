/// Comparing the fields of one response name pair by pair, as graphql-js does, without paying for
/// every pair.
///
/// graphql-js compares each field of one side with each field of the other (each later field,
/// within one set) and reports every pair that conflicts. The same conflicts come out here, in the
/// same order, but:
/// - fields written the same way (one class, see ``Collected/classify(bytes:fields:)``) compare the
///   same with any field, so each class is compared once with each class of the other side, and
///   only the pairs to report are compared again, for their own places;
/// - the pairs stop once `conflicts` holds `limit`, so a name written thousands of times costs its
///   classes' comparisons and one pass per reported conflict, not one comparison per pair.
extension OverlappingFieldsCanBeMergedRule {
    /// Groups with at most this many pairs are compared pair by pair, with no classes to build.
    private static let pairwiseLimit = 64

    /// Appends the conflicts between the fields `left` of one collected set and `right` of
    /// another (or, `within` one set, between each field and the later ones of the same list).
    static func collectPairConflicts(
        _ responseName: String, left: (map: Int, members: [Int]), right: (map: Int, members: [Int]), within: Bool,
        exclusive: Bool, depth: Int, limit: Int, into conflicts: inout [Conflict], in context: inout ValidationContext
    ) {
        if left.members.count * right.members.count <= pairwiseLimit {
            let entries1 = context.overlapping.collected[left.map].entries
            let entries2 = context.overlapping.collected[right.map].entries
            for (position, first) in left.members.enumerated() {
                for second in right.members[(within ? position + 1 : 0)...] {
                    if let conflict = findConflict(
                        responseName, entries1[first], entries2[second], parentsExclusive: exclusive, depth: depth,
                        in: &context
                    ) {
                        conflicts.append(conflict)
                    }
                    if conflicts.count >= limit || context.overlapping.gaveUp { return }
                }
            }
            return
        }
        classifyIfNeeded(left.map, in: &context)
        classifyIfNeeded(right.map, in: &context)
        let classOf1 = context.overlapping.collected[left.map].classOf
        let classOf2 = context.overlapping.collected[right.map].classOf
        let entries1 = context.overlapping.collected[left.map].entries
        let entries2 = context.overlapping.collected[right.map].entries

        // The classes of the right side (each named by its first entry), and within one set a
        // second entry of each class, to compare a class with itself.
        var rightClasses: [Int] = []
        var secondOfClass: [Int: Int] = [:]
        var seen: Set<Int> = []
        for entry in right.members {
            let rightClass = classOf2[entry]
            if seen.insert(rightClass).inserted {
                rightClasses.append(rightClass)
            } else if within, secondOfClass[rightClass] == nil {
                secondOfClass[rightClass] = entry
            }
        }

        // Left class → the right classes it conflicts with; the conflicts of the pairs compared.
        var conflictingClasses: [Int: Set<Int>] = [:]
        var compared: [Int: Conflict] = [:]
        func pairKey(_ first: Int, _ second: Int) -> Int { first << 32 | second }

        for (position, first) in left.members.enumerated() {
            let leftClass = classOf1[first]
            var conflicting = conflictingClasses[leftClass]
            if conflicting == nil {
                var found: Set<Int> = []
                for rightClass in rightClasses {
                    var partner = rightClass
                    if within, rightClass == leftClass {
                        guard let second = secondOfClass[rightClass] else { continue }
                        partner = second
                    }
                    if let conflict = findConflict(
                        responseName, entries1[leftClass], entries2[partner], parentsExclusive: exclusive,
                        depth: depth, in: &context
                    ) {
                        found.insert(rightClass)
                        compared[pairKey(leftClass, partner)] = conflict
                    }
                    if context.overlapping.gaveUp { return }
                }
                conflictingClasses[leftClass] = found
                conflicting = found
            }
            guard let conflicting, !conflicting.isEmpty else { continue }
            for second in right.members[(within ? position + 1 : 0)...]
            where conflicting.contains(classOf2[second]) {
                // A pair compared above is known; any other pair of the same classes conflicts too,
                // and is compared again only for the places its own conflict names.
                let conflict = compared[pairKey(first, second)] ?? findConflict(
                    responseName, entries1[first], entries2[second], parentsExclusive: exclusive, depth: depth,
                    in: &context
                )
                if let conflict { conflicts.append(conflict) }
                if conflicts.count >= limit || context.overlapping.gaveUp { return }
            }
        }
    }

    /// Fills a collected set's classes the first time they are needed.
    private static func classifyIfNeeded(_ map: Int, in context: inout ValidationContext) {
        guard context.overlapping.collected[map].classOf.isEmpty else { return }
        let fields = context.overlapping.fields
        var collected = context.overlapping.collected[map]
        context.overlapping.collected[map] = Collected()
        let bytes = collected.entries.first.flatMap { context.documents[$0.document].source?.bytes }
        collected.classify(bytes: bytes, fields: fields)
        context.overlapping.collected[map] = collected
    }
}
