/// The one walk over a compilation unit.
///
/// Each node's type information (its parent type, field definition, expected input type) is
/// computed once and handed to every enabled rule in graphql-js's `specifiedRules` order: rules
/// run on entering a node, then its children are walked, then rules that graphql-js runs on
/// leaving it. The walk recurses along the document's nesting, which the parser bounds; a document
/// built in code deeper than ``Validator/Limits/maxDepth`` is reported instead of walked.
extension ValidationContext {
    mutating func walk() {
        var operationIndex = 0
        var fragmentIndex = 0
        for (index, document) in documents.enumerated() {
            self.document = index
            if isEnabled(.executableDefinitions) {
                ExecutableDefinitionsRule.check(document, in: &self)
            }
            for definition in document.definitions {
                if aborted { return }
                switch definition {
                case .operation(let operation):
                    walkOperation(operation, index: operationIndex)
                    operationIndex += 1
                case .fragment(let fragment):
                    walkFragmentDefinition(fragment, index: fragmentIndex)
                    fragmentIndex += 1
                default:
                    break
                }
            }
        }
    }

    private mutating func walkOperation(_ operation: OperationDefinition, index: Int) {
        if isEnabled(.uniqueOperationNames) { UniqueOperationNamesRule.check(operation, in: &self) }
        if isEnabled(.loneAnonymousOperation) { LoneAnonymousOperationRule.check(operation, in: &self) }
        if isEnabled(.singleFieldSubscriptions) { SingleFieldSubscriptionsRule.check(operation, in: &self) }
        if isEnabled(.uniqueVariableNames) { UniqueVariableNamesRule.check(operation, in: &self) }
        if isEnabled(.uniqueDirectivesPerLocation) {
            UniqueDirectivesPerLocationRule.check(operation.directives, in: &self)
        }
        currentVariableDefinitions = operation.variableDefinitions
        currentUsages = []
        var variableTypes: [Schema.TypeRef?] = []
        variableTypes.reserveCapacity(operation.variableDefinitions.count)
        for definition in operation.variableDefinitions {
            variableTypes.append(walkVariableDefinition(definition))
        }
        variableTypesOfOperation[index] = variableTypes
        let location: DirectiveLocation = switch operation.operation {
        case .query: .query
        case .mutation: .mutation
        case .subscription: .subscription
        }
        walkDirectives(operation.directives, location: location, enclosingField: nil, recordsUsages: true)
        let root = schema.rootTypeIndex(for: operation.operation)
        let rootType = root >= 0 && schema.kind(root) == .object ? root : -1
        currentSize = LocalSize()
        walkSelectionSet(operation.selectionSet, type: rootType, enclosingField: nil, depth: 1)
        usagesOfOperation[index] = currentUsages
        sizeOfOperation[index] = currentSize
        currentSize = LocalSize()
        currentUsages = []
        currentVariableDefinitions = []
    }

    /// Walks a variable definition; returns its type as the schema resolves it.
    private mutating func walkVariableDefinition(_ definition: VariableDefinition) -> Schema.TypeRef? {
        let type = schema.typeRef(definition.type)
        if isEnabled(.variablesAreInputTypes) { VariablesAreInputTypesRule.check(definition, type, in: &self) }
        if isEnabled(.uniqueDirectivesPerLocation) {
            UniqueDirectivesPerLocationRule.check(definition.directives, in: &self)
        }
        let namedType = definition.type.namedType
        if isEnabled(.knownTypeNames), type == nil, schema.typeIndex(named: namedType.name.value) == nil {
            KnownTypeNamesRule.report(definition.type.namedType, in: &self)
        }
        if let value = definition.defaultValue {
            let inputType = type.flatMap { schema.kind($0.namedIndex).isInput ? $0 : nil }
            // Usages inside a variable definition are not usages (graphql-js skips the definition).
            walkValue(value, type: inputType, hasDefault: false, checksValues: true, recordsUsages: false, depth: 1)
        }
        walkDirectives(definition.directives, location: .variableDefinition, enclosingField: nil, recordsUsages: false)
        return type
    }

    private mutating func walkFragmentDefinition(_ fragment: FragmentDefinition, index: Int) {
        let conditionIndex = schema.typeIndex(named: fragment.typeCondition.name.value)
        if isEnabled(.uniqueFragmentNames) { UniqueFragmentNamesRule.check(fragment, in: &self) }
        if isEnabled(.fragmentsOnCompositeTypes), let conditionIndex {
            FragmentsOnCompositeTypesRule.check(fragment, conditionIndex: conditionIndex, in: &self)
        }
        if isEnabled(.noFragmentCycles) { NoFragmentCyclesRule.check(fragment, in: &self) }
        if isEnabled(.uniqueDirectivesPerLocation) {
            UniqueDirectivesPerLocationRule.check(fragment.directives, in: &self)
        }
        if isEnabled(.knownTypeNames), conditionIndex == nil {
            KnownTypeNamesRule.report(fragment.typeCondition, in: &self)
        }
        currentUsages = []
        walkDirectives(fragment.directives, location: .fragmentDefinition, enclosingField: nil, recordsUsages: true)
        let type = conditionIndex.flatMap { schema.kind($0).isOutput ? $0 : nil } ?? -1
        currentSize = LocalSize()
        walkSelectionSet(fragment.selectionSet, type: type, enclosingField: nil, depth: 1)
        usagesOfFragment[index] = currentUsages
        sizeOfFragment[index] = currentSize
        currentSize = LocalSize()
        currentUsages = []
    }

    /// Walks a selection set whose enclosing output type is `type` (a named type index or -1).
    ///
    /// `enclosingField` is the field the set belongs to: graphql-js looks up the arguments of an
    /// unknown directive on it, which this walk reproduces.
    ///
    /// The response keys of the set, its inline fragments' included, go on `responseKeys` from
    /// `region` on (the enclosing set's start, for an inline fragment's set). They decide whether
    /// field merging has anything to check: only when a key repeats or a fragment is spread.
    /// Returns the repeats found, for the enclosing set to decide the same about itself.
    @discardableResult
    mutating func walkSelectionSet(
        _ selectionSet: SelectionSet, type: Int, enclosingField: FieldRef?, depth: Int, region: Int? = nil
    ) -> KeyRepeats {
        var repeats = KeyRepeats()
        guard depth <= limits.maxDepth else {
            SelectionLimitsRule.reportWalkDepth(at: selectionSet, in: &self)
            return repeats
        }
        let parentType = type >= 0 && schema.kind(type).isComposite ? type : -1
        if depth > currentSize.depth { currentSize.depth = depth }
        let ownStart = responseKeys.count
        let regionStart = region ?? ownStart
        // Field merging runs after the walk, on the sets that need it, in walk (graphql-js's)
        // order: its memoization makes what it reports depend on the order.
        let order = mergeOrder
        mergeOrder += 1
        for selection in selectionSet.selections {
            if aborted { break }
            switch selection {
            case .field(let field):
                currentSize.fields += 1
                addResponseKey(field.alias?.value ?? field.name.value, from: regionStart, to: &repeats)
                walkField(field, parentType: parentType, depth: depth)
            case .fragmentSpread(let spread):
                repeats.always = true
                walkFragmentSpread(spread, parentType: parentType, enclosingField: enclosingField, depth: depth)
            case .inlineFragment(let inline):
                repeats.merge(walkInlineFragment(
                    inline, type: type, parentType: parentType, enclosingField: enclosingField, depth: depth,
                    region: regionStart
                ))
            }
        }
        if repeats.within(ownStart) {
            mergeChecks.append(MergeCheck(
                order: order, selectionSet: selectionSet, parentType: parentType, document: document
            ))
        }
        if region == nil { responseKeys.removeSubrange(ownStart...) }
        return repeats
    }

    /// Records a response key, noting the closest earlier position of an equal key in the region.
    @inline(__always)
    private mutating func addResponseKey(_ key: String, from regionStart: Int, to repeats: inout KeyRepeats) {
        guard !repeats.always else { return }
        if responseKeys.count - regionStart >= 32 {
            // Too many to compare one by one: let field merging look.
            repeats.always = true
            return
        }
        var position = responseKeys.count - 1
        while position >= regionStart {
            if responseKeys[position] == key {
                repeats.latest = max(repeats.latest, position)
                break
            }
            position -= 1
        }
        responseKeys.append(key)
    }

    private mutating func walkField(_ field: Field, parentType: Int, depth: Int) {
        let fieldRef = parentType >= 0 ? schema.fieldRef(named: field.name.value, in: parentType) : nil
        let fieldType = fieldRef.map { schema.fieldType($0) }
        if isEnabled(.scalarLeafs) { ScalarLeafsRule.check(field, type: fieldType, in: &self) }
        if isEnabled(.fieldsOnCorrectType), parentType >= 0, fieldRef == nil {
            FieldsOnCorrectTypeRule.report(field, parentType: parentType, in: &self)
        }
        var skipsIntrospectionDepth = false
        if isEnabled(.maxIntrospectionDepth), introspectionSkipDepth == 0 {
            skipsIntrospectionDepth = MaxIntrospectionDepthRule.check(field, in: &self)
            if skipsIntrospectionDepth { introspectionSkipDepth = depth }
        }
        if isEnabled(.uniqueDirectivesPerLocation), !field.directives.isEmpty {
            UniqueDirectivesPerLocationRule.check(field.directives, in: &self)
        }
        if isEnabled(.uniqueArgumentNames), field.arguments.count > 1 {
            UniqueArgumentNamesRule.check(field.arguments, in: &self)
        }
        let argumentDefinitions = field.arguments.isEmpty ? [] : fieldRef.map { schema.fieldArguments($0) } ?? []
        for argument in field.arguments {
            let argumentDefinition = argumentDefinitions.first { $0.name == argument.name.value }
            if isEnabled(.knownArgumentNames), argumentDefinition == nil, let fieldRef, parentType >= 0 {
                KnownArgumentNamesRule.reportFieldArgument(argument, field: fieldRef, in: &self)
            }
            walkValue(
                argument.value, type: argumentDefinition?.type, hasDefault: argumentDefinition?.defaultValue != nil,
                checksValues: true, recordsUsages: true, depth: depth
            )
        }
        if !field.directives.isEmpty {
            walkDirectives(field.directives, location: .field, enclosingField: fieldRef, recordsUsages: true)
        }
        if let selectionSet = field.selectionSet {
            walkSelectionSet(
                selectionSet, type: fieldType?.namedIndex ?? -1, enclosingField: fieldRef,
                depth: depth + 1
            )
        }
        if isEnabled(.providedRequiredArguments), let fieldRef {
            ProvidedRequiredArgumentsRule.check(field, fieldRef, in: &self)
        }
        if skipsIntrospectionDepth { introspectionSkipDepth = 0 }
    }

    private mutating func walkFragmentSpread(
        _ spread: FragmentSpread, parentType: Int, enclosingField: FieldRef?, depth: Int
    ) {
        let fragment = fragmentIndex(named: spread.name.value)
        currentSize.spreads.append(LocalSize.SpreadAt(fragment: fragment, depth: depth))
        if isEnabled(.knownFragmentNames), fragment == nil {
            KnownFragmentNamesRule.report(spread, in: &self)
        }
        if isEnabled(.possibleFragmentSpreads), let fragment, parentType >= 0 {
            PossibleFragmentSpreadsRule.check(spread, fragmentType: fragmentTypeIndex(fragment),
                                              parentType: parentType, in: &self)
        }
        if isEnabled(.uniqueDirectivesPerLocation), !spread.directives.isEmpty {
            UniqueDirectivesPerLocationRule.check(spread.directives, in: &self)
        }
        if !spread.directives.isEmpty {
            walkDirectives(
                spread.directives, location: .fragmentSpread, enclosingField: enclosingField, recordsUsages: true
            )
        }
    }

    private mutating func walkInlineFragment(
        _ inline: InlineFragment, type: Int, parentType: Int, enclosingField: FieldRef?, depth: Int, region: Int
    ) -> KeyRepeats {
        var fragmentType = type
        var conditionIndex: Int?
        if let condition = inline.typeCondition {
            conditionIndex = schema.typeIndex(named: condition.name.value)
            fragmentType = conditionIndex.flatMap { schema.kind($0).isOutput ? $0 : nil } ?? -1
            if isEnabled(.fragmentsOnCompositeTypes), let conditionIndex {
                FragmentsOnCompositeTypesRule.check(inline, conditionIndex: conditionIndex, in: &self)
            }
        }
        if isEnabled(.possibleFragmentSpreads), parentType >= 0, fragmentType >= 0 {
            PossibleFragmentSpreadsRule.check(inline, fragmentType: fragmentType, parentType: parentType, in: &self)
        }
        if isEnabled(.uniqueDirectivesPerLocation), !inline.directives.isEmpty {
            UniqueDirectivesPerLocationRule.check(inline.directives, in: &self)
        }
        if let condition = inline.typeCondition, isEnabled(.knownTypeNames), conditionIndex == nil {
            KnownTypeNamesRule.report(condition, in: &self)
        }
        if !inline.directives.isEmpty {
            walkDirectives(
                inline.directives, location: .inlineFragment, enclosingField: enclosingField, recordsUsages: true
            )
        }
        return walkSelectionSet(
            inline.selectionSet, type: fragmentType, enclosingField: enclosingField, depth: depth + 1, region: region
        )
    }
}

/// A selection set field merging has to check, found by the walk, with its place in walk order.
struct MergeCheck {
    var order: Int
    var selectionSet: SelectionSet
    var parentType: Int
    var document: Int
}

/// Where a selection set's response keys repeat: the latest position on the key stack that a
/// later key of the set repeated, or `always` once a fragment is spread or there are too many keys.
///
/// A set starting at `start` repeats a key within itself exactly when some key repeated one at or
/// after `start`, and the closest repeat of each key is the one recorded, so the latest of those
/// positions decides.
struct KeyRepeats {
    var always = false
    var latest = -1

    /// Whether two fields of the set that starts at `start` on the key stack may conflict.
    @inline(__always)
    func within(_ start: Int) -> Bool { always || latest >= start }

    mutating func merge(_ other: KeyRepeats) {
        always = always || other.always
        latest = max(latest, other.latest)
    }
}
