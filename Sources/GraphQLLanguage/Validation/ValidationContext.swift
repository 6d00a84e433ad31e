/// A position in a compilation unit: a document's index and a byte offset in it.
struct Place: Hashable, Sendable {
    var document: Int
    var offset: Int
}

/// A problem found, before its places are turned into lines and columns.
struct PendingError {
    var message: String
    var rule: ValidationRule?
    var places: [Place]
    /// Whether this says that the rest of its document's errors are left out (it comes last).
    var endsDocument = false
}

/// A variable used in a definition: where, and the type and default of the position it is in.
struct VariableUsage {
    var name: String
    var place: Place
    /// The input type expected where the variable is used; `nil` when unknown.
    var type: Schema.TypeRef?
    /// Whether the position (an argument or input field) has a default value.
    var hasLocationDefault: Bool
}

/// Everything one validation run shares: the schema, the compilation unit's documents and
/// definitions, the problems found so far, and the state of the rules that look beyond one node.
///
/// One walk over the unit (see `ValidationContext+Walk.swift`) computes the type information at
/// each node once, as graphql-js's `TypeInfo` does, and calls every enabled rule there, as
/// graphql-js's parallel visitor does. Rules that need the whole unit (unused fragments, variable
/// usage through fragments) finish in `ValidationContext+Finish.swift`.
struct ValidationContext {
    let schema: Schema
    let documents: [Document]
    var enabled: RuleSet
    let limits: Validator.Limits

    var errors: [PendingError] = []
    /// Set once the error limit is reached; the walk then stops.
    var aborted = false
    /// With several documents, the errors reported in each: the error limit holds per document,
    /// so one document with many errors hides none of the others' (see `report`).
    var errorsOfDocument: [Int] = []
    var cappedDocuments = 0

    /// The operations and fragments of the unit, in document order.
    var operations: [OperationEntry] = []
    var fragments: [FragmentEntry] = []
    /// Fragment name → index in `fragments` of the last definition of that name (graphql-js's `getFragment`).
    var fragmentIndexByName = NameIndex(capacity: 0)

    /// The document being walked.
    var document = 0
    /// Variable usages recorded for each operation and fragment, and for the definition being walked.
    var usagesOfOperation: [[VariableUsage]] = []
    var usagesOfFragment: [[VariableUsage]] = []
    var currentUsages: [VariableUsage] = []
    /// The variable definitions of the operation being walked (empty in fragments).
    var currentVariableDefinitions: [VariableDefinition] = []
    /// Each operation's variable types as the schema resolves them (`nil` for an unknown type),
    /// in the order of its variable definitions.
    var variableTypesOfOperation: [[Schema.TypeRef?]] = []
    /// The spreads each fragment makes directly, in graphql-js `getFragmentSpreads` order.
    var spreadsOfFragment: [[FragmentSpread]?] = []
    /// The size of each operation and fragment on its own, as the walk measured it, and of the
    /// definition being walked (see `SelectionLimitsRule`).
    var sizeOfOperation: [LocalSize] = []
    var sizeOfFragment: [LocalSize] = []
    var currentSize = LocalSize()

    /// The selection sets field merging must check, and the walk order of the next set.
    var mergeChecks: [MergeCheck] = []
    var mergeOrder = 0
    /// The response keys of the selection sets being walked (see `walkSelectionSet`).
    var responseKeys: [String] = []

    // State of rules that remember earlier nodes.
    var operationNamePlaces: [String: Place] = [:]
    var fragmentNamePlaces: [String: Place] = [:]
    var noFragmentCycles = NoFragmentCyclesRule.State()
    var overlapping = OverlappingFieldsCanBeMergedRule.State()
    var introspectionDepth = MaxIntrospectionDepthRule.State()
    /// Whether the walk already reported going deeper than the depth limit.
    var reportedWalkDepth = false
    /// While positive, MaxIntrospectionDepthRule skips the fields below the one it reported.
    var introspectionSkipDepth = 0

    init(schema: Schema, documents: [Document], rules: RuleSet, limits: Validator.Limits) {
        self.schema = schema
        self.documents = documents
        self.enabled = rules
        self.limits = limits
        for (index, document) in documents.enumerated() {
            for definition in document.definitions {
                switch definition {
                case .operation(let operation):
                    operations.append(OperationEntry(definition: operation, document: index))
                case .fragment(let fragment):
                    fragments.append(FragmentEntry(definition: fragment, document: index))
                default: break
                }
            }
        }
        // Inserted last first, so that the last definition of a name wins.
        fragmentIndexByName = NameIndex(capacity: fragments.count)
        for index in fragments.indices.reversed() {
            fragmentIndexByName.insert(owner: -1, name: fragments[index].definition.name.value, value: index)
        }
        errorsOfDocument = Array(repeating: 0, count: documents.count)
        usagesOfOperation = Array(repeating: [], count: operations.count)
        variableTypesOfOperation = Array(repeating: [], count: operations.count)
        sizeOfOperation = Array(repeating: LocalSize(), count: operations.count)
        sizeOfFragment = Array(repeating: LocalSize(), count: fragments.count)
        usagesOfFragment = Array(repeating: [], count: fragments.count)
        spreadsOfFragment = Array(repeating: nil, count: fragments.count)
    }

    @inline(__always)
    func isEnabled(_ rule: ValidationRule) -> Bool { enabled.contains(rule) }

    /// A place in the document being walked.
    @inline(__always)
    func place(_ offset: Int) -> Place { Place(document: document, offset: offset) }

    /// Records a problem; past the error limit, records graphql-js's abort message once and stops.
    ///
    /// With several documents the limit holds for each: a document's errors past it are dropped,
    /// with one error at the first of them saying so, and the walk stops once every document has
    /// reached it. Errors without a place count against the limit times the number of documents.
    mutating func report(_ rule: ValidationRule?, _ message: String, _ places: [Place]) {
        guard !aborted else { return }
        if documents.count > 1, let place = places.first, errorsOfDocument.indices.contains(place.document) {
            let count = errorsOfDocument[place.document]
            if count < limits.maxErrors {
                errorsOfDocument[place.document] = count + 1
                errors.append(PendingError(message: message, rule: rule, places: places))
            } else if count == limits.maxErrors {
                errorsOfDocument[place.document] = count + 1
                errors.append(PendingError(
                    message: "Too many validation errors in this file, error limit reached; its other errors are "
                        + "not shown.", rule: nil, places: [place], endsDocument: true
                ))
                cappedDocuments += 1
                if cappedDocuments == documents.count { aborted = true }
            }
            return
        }
        if errors.count >= limits.maxErrors * max(1, documents.count) {
            errors.append(PendingError(
                message: "Too many validation errors, error limit reached. Validation aborted.", rule: nil, places: []
            ))
            aborted = true
            return
        }
        errors.append(PendingError(message: message, rule: rule, places: places))
    }

    /// How many more errors the error limit lets a problem found in `document` add.
    func errorRoom(in document: Int) -> Int {
        if documents.count > 1, errorsOfDocument.indices.contains(document) {
            return max(0, limits.maxErrors - errorsOfDocument[document])
        }
        return max(0, limits.maxErrors - errors.count)
    }

    /// The fragment a spread refers to, if the unit defines it.
    @inline(__always)
    func fragmentIndex(named name: String) -> Int? { fragmentIndexByName.find(owner: -1, name: name) }

    /// The composite type a fragment's type condition names, or -1.
    func fragmentTypeIndex(_ fragment: Int) -> Int {
        guard let index = schema.typeIndex(named: fragments[fragment].definition.typeCondition.name.value),
            schema.kind(index).isComposite
        else { return -1 }
        return index
    }

    /// The spreads in a fragment's selections (not following other fragments), computed once, in
    /// graphql-js's `getFragmentSpreads` order: a set's own spreads, then its nested sets last first.
    mutating func spreads(ofFragment fragment: Int) -> [FragmentSpread] {
        if let cached = spreadsOfFragment[fragment] { return cached }
        let spreads = Self.spreads(in: fragments[fragment].definition.selectionSet)
        spreadsOfFragment[fragment] = spreads
        return spreads
    }

    static func spreads(in selectionSet: SelectionSet) -> [FragmentSpread] {
        var spreads: [FragmentSpread] = []
        var setsToVisit = [selectionSet]
        while let set = setsToVisit.popLast() {
            for selection in set.selections {
                switch selection {
                case .fragmentSpread(let spread): spreads.append(spread)
                case .field(let field): if let nested = field.selectionSet { setsToVisit.append(nested) }
                case .inlineFragment(let inline): setsToVisit.append(inline.selectionSet)
                }
            }
        }
        return spreads
    }

    /// The fragments an operation uses, directly or through other fragments, each once (graphql-js
    /// `getRecursivelyReferencedFragments`; the order differs, which changes nothing reported).
    mutating func recursivelyReferencedFragments(_ operation: Int) -> [Int] {
        var found: [Int] = []
        guard !sizeOfOperation[operation].spreads.isEmpty else { return found }
        // Unknown names add nothing, so marking known fragments is as good as collecting names.
        var collected = Array(repeating: false, count: fragments.count)
        for spread in sizeOfOperation[operation].spreads {
            guard let fragment = spread.fragment, !collected[fragment] else { continue }
            collected[fragment] = true
            found.append(fragment)
        }
        var next = 0
        while next < found.count {
            for spread in spreads(ofFragment: found[next]) {
                guard let fragment = fragmentIndex(named: spread.name.value), !collected[fragment] else { continue }
                collected[fragment] = true
                found.append(fragment)
            }
            next += 1
        }
        return found
    }
}

/// What the walk measures of one operation or fragment for the selection limits: its own fields,
/// its deepest selection set, and the fragments it spreads with the depth of the set they are in.
struct LocalSize {
    var fields = 0
    var depth = 0
    var spreads: [SpreadAt] = []

    /// A fragment spread (the fragment's index, or `nil` when unknown) in a set at `depth`.
    struct SpreadAt {
        var fragment: Int?
        var depth: Int
    }
}

/// An operation of the unit and the index of its document.
struct OperationEntry {
    var definition: OperationDefinition
    var document: Int
}

/// A fragment of the unit and the index of its document.
struct FragmentEntry {
    var definition: FragmentDefinition
    var document: Int
}
