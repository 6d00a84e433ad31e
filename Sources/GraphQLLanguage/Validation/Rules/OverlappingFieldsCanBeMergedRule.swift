/// Field Selection Merging — https://spec.graphql.org/October2021/#sec-Field-Selection-Merging
///
/// Fields that end up under one response name, directly or through fragments, must be the same
/// field with the same arguments (unless their parent types are different object types, which never
/// apply together) and must have compatible types, recursively through their sub-selections.
///
/// The algorithm is graphql-js's: each selection set's fields (grouped by response name) and
/// spread fragment names are collected once and cached; fields are compared "within" a set, and
/// "between" sets, fragments and sub-selections; two fragments are compared once per
/// exclusivity (the pair set), and a set of fields is compared with a fragment's nested fragments
/// once per pair of fragment names. A fragment-doubling document costs time linear in the number
/// of fragments.
///
/// Two bounds keep one response name written many times near-linear (graphql-js and graphql-java
/// both once took quadratic time there). Fields of one group written the same way form a class,
/// and each class is compared once with each class of the other side (see
/// `OverlappingFieldsCanBeMergedRule+Pairs.swift`), so `{ a: hello a: x a: hello a: x ... }` costs
/// four comparisons. And the conflicts of one selection set are collected only as far as the
/// error limit can still report them: the errors reported are graphql-js's, in its order, up to
/// that limit. A budget of comparisons bounds what is left.
enum OverlappingFieldsCanBeMergedRule {
    /// The most field comparisons one validation makes before giving up on this rule.
    static let comparisonBudget = 2_000_000

    /// A field as collected for comparison: where it is and what it resolves to. The field node
    /// itself is kept once in ``State/fields``, so entries copy without reference counting.
    struct FieldEntry {
        var parentType: Int
        /// Index of the field node in ``State/fields``.
        var field: Int
        var type: Schema.TypeRef?
        var document: Int
        /// The offset of the field (its alias, if any).
        var start: Int
        var hasSelections: Bool

        var place: Place { Place(document: document, offset: start) }
    }

    struct State {
        /// Selection set (document, offset) → index into `collected`.
        var cache = IntTable()
        var collected: [Collected] = []
        /// The field nodes collected entries refer to.
        var fields: [Field] = []
        /// Per fragment index, the index of its collected fields in `collected`, or -1.
        var collectedFragments: [Int] = []
        /// Pairs of fragment indices compared, with whether they were compared as mutually exclusive.
        var comparedFragmentPairs: [UInt64: Bool] = [:]
        var comparisons = 0
        var gaveUp = false
    }

    /// Why two fields conflict: a sentence, or the conflicts of their sub-fields.
    indirect enum Reason {
        case message(String)
        case subfields([(String, Reason)])

        var text: String {
            switch self {
            case .message(let message): return message
            case .subfields(let reasons):
                return reasons.map { "subfields \"\($0.0)\" conflict because \($0.1.text)" }.joined(separator: " and ")
            }
        }
    }

    struct Conflict {
        var responseName: String
        var reason: Reason
        var fields1: [Place]
        var fields2: [Place]
    }

    /// Checks the selection sets the walk found, in walk order.
    static func checkAll(in context: inout ValidationContext) {
        // Sets are recorded when the walk leaves them, so inner sets come first: put them back in
        // the order the walk entered them.
        let checks = context.mergeChecks.sorted { $0.order < $1.order }
        context.mergeChecks = []
        for check in checks {
            if context.aborted { return }
            Self.check(check.selectionSet, parentType: check.parentType, document: check.document, in: &context)
        }
    }

    /// Checks one selection set: conflicts within it, including through its fragments. Only sets
    /// where two fields share a response name or a fragment is spread are checked; in any other
    /// set nothing can conflict.
    static func check(
        _ selectionSet: SelectionSet, parentType: Int, document: Int, in context: inout ValidationContext
    ) {
        guard !context.overlapping.gaveUp else { return }
        let collected = collect(selectionSet, parentType: parentType, document: document, in: &context)
        // One more than the error limit leaves room for: the rest could never be reported.
        let limit = context.errorRoom(in: document) + 1
        var conflicts: [Conflict] = []
        collectConflictsWithin(collected, limit: limit, into: &conflicts, in: &context)
        let fragments = context.overlapping.collected[collected].fragments
        for (position, fragment) in fragments.enumerated() where conflicts.count < limit {
            collectConflictsBetweenFieldsAndFragment(
                collected, fragment, exclusive: false, limit: limit, into: &conflicts, depth: 0, in: &context
            )
            for other in fragments[(position + 1)...] where conflicts.count < limit {
                collectConflictsBetweenFragments(
                    fragment, other, exclusive: false, limit: limit, into: &conflicts, depth: 0, in: &context
                )
            }
        }
        for conflict in conflicts {
            context.report(
                .overlappingFieldsCanBeMerged,
                "Fields \"\(conflict.responseName)\" conflict because \(conflict.reason.text). Use different aliases "
                    + "on the fields to fetch both if this was intentional.",
                conflict.fields1 + conflict.fields2
            )
        }
    }

    /// The index of the collected fields of a selection set, computing them on first use.
    static func collect(_ selectionSet: SelectionSet, parentType: Int, document: Int,
                        in context: inout ValidationContext) -> Int {
        // Sets built in code carry no ranges, so only parsed ones can be told apart and cached.
        let key = document << 40 | selectionSet.range.start
        let cacheable = selectionSet.range != .none
        if cacheable, let index = context.overlapping.cache.find(key) { return index }
        var collected = Collected()
        let expected = selectionSet.selections.count + 4
        collected.entries.reserveCapacity(expected)
        collected.groupOf.reserveCapacity(expected)
        collected.nextInGroup.reserveCapacity(expected)
        var fields = context.overlapping.fields
        context.overlapping.fields = []
        gather(selectionSet, parentType: parentType, document: document, nesting: 0, into: &collected,
               fields: &fields, in: context)
        context.overlapping.fields = fields
        let index = context.overlapping.collected.count
        context.overlapping.collected.append(collected)
        if cacheable { context.overlapping.cache.insert(key, index) }
        return index
    }

    /// The collected fields of a fragment, under its type condition.
    static func collect(fragment: Int, in context: inout ValidationContext) -> Int {
        if context.overlapping.collectedFragments.isEmpty {
            context.overlapping.collectedFragments = Array(repeating: -1, count: context.fragments.count)
        }
        let known = context.overlapping.collectedFragments[fragment]
        if known >= 0 { return known }
        let type = context.schema.typeIndex(named: context.fragments[fragment].definition.typeCondition.name.value)
        let index = collect(context.fragments[fragment].definition.selectionSet, parentType: type ?? -1,
                            document: context.fragments[fragment].document, in: &context)
        context.overlapping.collectedFragments[fragment] = index
        return index
    }

    private static func gather(
        _ selectionSet: SelectionSet, parentType: Int, document: Int, nesting: Int,
        into collected: inout Collected, fields: inout [Field], in context: ValidationContext
    ) {
        guard nesting <= context.limits.maxDepth else { return }
        let schema = context.schema
        for selection in selectionSet.selections {
            switch selection {
            case .field(let field):
                var type: Schema.TypeRef?
                if parentType >= 0 {
                    let kind = schema.kind(parentType)
                    if kind == .object || kind == .interface {
                        type = schema.fieldType(named: field.name.value, in: parentType)
                    }
                }
                let entry = FieldEntry(
                    parentType: parentType, field: fields.count, type: type, document: document,
                    start: field.range.start, hasSelections: field.selectionSet != nil
                )
                fields.append(field)
                collected.append(entry, key: field.alias?.value ?? field.name.value)
            case .fragmentSpread(let spread):
                if let index = context.fragmentIndex(named: spread.name.value) { collected.spread(index) }
            case .inlineFragment(let inline):
                let type = inline.typeCondition.map { schema.typeIndex(named: $0.name.value) ?? -1 } ?? parentType
                gather(inline.selectionSet, parentType: type, document: document, nesting: nesting + 1,
                       into: &collected, fields: &fields, in: context)
            }
        }
    }
}
