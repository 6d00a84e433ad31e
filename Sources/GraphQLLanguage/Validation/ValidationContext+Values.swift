/// The walk over directives, arguments and values.
extension ValidationContext {
    /// Walks the directives of a node at `location`.
    ///
    /// The arguments of an unknown directive are looked up on `enclosingField`, as graphql-js's
    /// `TypeInfo` does, so their values are still checked against something.
    mutating func walkDirectives(
        _ directives: [Directive], location: DirectiveLocation, enclosingField: FieldRef?, recordsUsages: Bool
    ) {
        for directive in directives {
            let definition = schema.directiveIndex(named: directive.name.value).map {
                schema.storage.contents.directives[$0]
            }
            if isEnabled(.knownDirectives) {
                KnownDirectivesRule.check(directive, definition, location: location, in: &self)
            }
            if isEnabled(.knownArgumentNames), let definition {
                KnownArgumentNamesRule.checkDirectiveArguments(directive, definition, in: &self)
            }
            if isEnabled(.uniqueArgumentNames), directive.arguments.count > 1 {
                UniqueArgumentNamesRule.check(directive.arguments, in: &self)
            }
            let argumentDefinitions = definition?.arguments ?? enclosingField.map { schema.field($0).arguments } ?? []
            for argument in directive.arguments {
                let argumentDefinition = argumentDefinitions.first { $0.name == argument.name.value }
                walkValue(
                    argument.value, type: argumentDefinition?.type,
                    hasDefault: argumentDefinition?.defaultValue != nil, checksValues: true,
                    recordsUsages: recordsUsages, depth: 1
                )
            }
            if isEnabled(.providedRequiredArguments), let definition {
                ProvidedRequiredArgumentsRule.check(directive, definition, in: &self)
            }
        }
    }

    /// Walks a value written where `type` is expected (`nil` when unknown).
    /// - Parameters:
    ///   - hasDefault: Whether the position has a default value (for variable usages).
    ///   - checksValues: `false` below a list or object ValuesOfCorrectTypeRule already rejected
    ///     whole, as graphql-js's rule skips those.
    ///   - recordsUsages: Whether variables found count as usages of the definition being walked.
    mutating func walkValue(
        _ value: Value, type: Schema.TypeRef?, hasDefault: Bool, checksValues: Bool, recordsUsages: Bool,
        depth: Int
    ) {
        guard depth <= limits.maxDepth else {
            SelectionLimitsRule.reportWalkDepth(at: value, in: &self)
            return
        }
        switch value {
        case .variable(let variable):
            if recordsUsages {
                currentUsages.append(VariableUsage(
                    name: variable.name.value, place: place(variable.range.start), type: type,
                    hasLocationDefault: hasDefault
                ))
            }
        case .null(let null):
            if checksValues, isEnabled(.valuesOfCorrectType), let type, type.isNonNull {
                report(.valuesOfCorrectType, "Expected value of type \"\(schema.name(of: type))\", found null.",
                       [place(null.range.start)])
            }
        case .int, .float, .string, .boolean, .enum:
            if checksValues, isEnabled(.valuesOfCorrectType), let type {
                ValuesOfCorrectTypeRule.checkLeaf(value, locationType: type, in: &self)
            }
        case .list(let list):
            // A list in a non-list position: its items are checked against the position's type.
            let itemType = type.map { $0.nullable.listItem ?? $0.nullable }
            var checksItems = checksValues
            if checksValues, isEnabled(.valuesOfCorrectType), !(type?.isList ?? false) {
                if let itemType { ValuesOfCorrectTypeRule.checkLeaf(value, locationType: itemType, in: &self) }
                checksItems = false
            }
            for item in list.values {
                walkValue(item, type: itemType, hasDefault: false, checksValues: checksItems,
                          recordsUsages: recordsUsages, depth: depth + 1)
            }
        case .object(let object):
            walkObject(object, type: type, checksValues: checksValues, recordsUsages: recordsUsages, depth: depth)
        }
    }

    private mutating func walkObject(
        _ object: ObjectValue, type: Schema.TypeRef?, checksValues: Bool, recordsUsages: Bool, depth: Int
    ) {
        let inputObject = type.flatMap { schema.kind($0.namedIndex) == .inputObject ? $0.namedIndex : nil }
        var checksFields = checksValues
        if checksValues, isEnabled(.valuesOfCorrectType) {
            if let inputObject {
                ValuesOfCorrectTypeRule.checkObject(object, inputObject: inputObject, in: &self)
            } else {
                if let type { ValuesOfCorrectTypeRule.checkLeaf(.object(object), locationType: type, in: &self) }
                checksFields = false
            }
        }
        if isEnabled(.uniqueInputFieldNames), object.fields.count > 1 {
            UniqueInputFieldNamesRule.check(object, in: &self)
        }
        for field in object.fields {
            var fieldDefinition: Schema.InputValue?
            if let inputObject {
                fieldDefinition = schema.memberIndex(named: field.name.value, in: inputObject).map {
                    schema.storage.contents.types[inputObject].inputFields[$0]
                }
                if fieldDefinition == nil, checksFields, isEnabled(.valuesOfCorrectType) {
                    ValuesOfCorrectTypeRule.reportUnknownField(field, inputObject: inputObject, in: &self)
                }
            }
            walkValue(
                field.value, type: fieldDefinition?.type, hasDefault: fieldDefinition?.defaultValue != nil,
                checksValues: checksFields, recordsUsages: recordsUsages, depth: depth + 1
            )
        }
    }
}
