/// Values of Correct Type — https://spec.graphql.org/October2021/#sec-Values-of-Correct-Type
///
/// Every literal value fits the type expected where it is written: the built-in scalars as
/// graphql-js's `parseLiteral` accepts them (with its messages), enum values that exist, input
/// objects with known fields, every required field, and exactly one field for `@oneOf` types.
/// Custom scalars accept any literal, as graphql-js's default `parseLiteral` does.
enum ValuesOfCorrectTypeRule {
    /// Checks a literal where `locationType` is expected (graphql-js `isValidValueNode`).
    static func checkLeaf(_ value: Value, locationType: Schema.TypeRef, in context: inout ValidationContext) {
        let schema = context.schema
        let named = locationType.namedIndex
        let kind = schema.kind(named)
        guard kind.isLeaf else {
            let place = context.place(value.range.start)
            context.report(.valuesOfCorrectType, "Expected value of type \"\(schema.name(of: locationType))\", found "
                           + "\(ValuePrinter.print(value)).", [place])
            return
        }
        let place = context.place(value.range.start)
        if kind == .enum {
            if case .enum(let enumValue) = value,
                schema.memberIndex(named: enumValue.value, in: named) != nil
            {
                return
            }
            checkEnum(value, schema.types[named], place, in: &context)
            return
        }
        var message: String?
        switch named {
        case Schema.intIndex:
            if case .int(let int) = value {
                if !isInt32(int.value) {
                    message = "Int cannot represent non 32-bit signed integer value: \(int.value)"
                }
            } else {
                message = "Int cannot represent non-integer value: \(ValuePrinter.print(value))"
            }
        case Schema.floatIndex:
            switch value {
            case .int, .float: break
            default: message = "Float cannot represent non numeric value: \(ValuePrinter.print(value))"
            }
        case Schema.stringIndex:
            if case .string = value {} else {
                message = "String cannot represent a non string value: \(ValuePrinter.print(value))"
            }
        case Schema.booleanIndex:
            if case .boolean = value {} else {
                message = "Boolean cannot represent a non boolean value: \(ValuePrinter.print(value))"
            }
        case Schema.idIndex:
            switch value {
            case .string, .int: break
            default: message = "ID cannot represent a non-string and non-integer value: \(ValuePrinter.print(value))"
            }
        default:
            break
        }
        if let message { context.report(.valuesOfCorrectType, message, [place]) }
    }

    private static func checkEnum(
        _ value: Value, _ type: Schema.NamedType, _ place: Place, in context: inout ValidationContext
    ) {
        if case .enum(let enumValue) = value {
            guard type.enumValueIndex(named: enumValue.value) == nil else { return }
            context.report(
                .valuesOfCorrectType,
                "Value \"\(enumValue.value)\" does not exist in \"\(type.name)\" enum."
                    + didYouMeanEnumValue(enumValue.value, type), [place]
            )
        } else {
            let printed = ValuePrinter.print(value)
            context.report(
                .valuesOfCorrectType,
                "Enum \"\(type.name)\" cannot represent non-enum value: \(printed)."
                    + didYouMeanEnumValue(printed, type), [place]
            )
        }
    }

    private static func didYouMeanEnumValue(_ text: String, _ type: Schema.NamedType) -> String {
        Suggestions.didYouMean(Suggestions.list(text, type.enumValues.map(\.name)), subMessage: "the enum value")
    }

    /// Whether an integer literal fits in 32 bits (graphql-js compares the parsed number).
    private static func isInt32(_ text: String) -> Bool {
        guard let number = Int(text) else { return false }
        return number >= Int(Int32.min) && number <= Int(Int32.max)
    }

    /// Checks an object literal for an input object type: required fields given, `@oneOf` rules.
    static func checkObject(_ object: ObjectValue, inputObject: Int, in context: inout ValidationContext) {
        let schema = context.schema
        let type = schema.storage.contents.types[inputObject]
        for field in type.inputFields where field.isRequired {
            guard !object.fields.contains(where: { $0.name.value == field.name }) else { continue }
            context.report(
                .valuesOfCorrectType,
                "Field \"\(type.name).\(field.name)\" of required type \"\(schema.name(of: field.type))\" was not "
                    + "provided.", [context.place(object.range.start)]
            )
        }
        if type.isOneOf { checkOneOf(object, type, in: &context) }
    }

    private static func checkOneOf(
        _ object: ObjectValue, _ type: Schema.NamedType, in context: inout ValidationContext
    ) {
        let place = context.place(object.range.start)
        // graphql-js keys the fields by name, so a repeated name counts once.
        var names: [String] = []
        var valueOfName: [String: Value] = [:]
        for field in object.fields {
            if valueOfName[field.name.value] == nil { names.append(field.name.value) }
            valueOfName[field.name.value] = field.value
        }
        guard names.count == 1, let name = names.first, let value = valueOfName[name] else {
            context.report(.valuesOfCorrectType, "OneOf Input Object \"\(type.name)\" must specify exactly one key.",
                           [place])
            return
        }
        if case .null = value {
            context.report(.valuesOfCorrectType, "Field \"\(type.name).\(name)\" must be non-null.", [place])
            return
        }
        if case .variable(let variable) = value,
            let definition = context.currentVariableDefinitions.last(where: {
                $0.variable.name.value == variable.name.value
            })
        {
            if case .nonNull = definition.type { return }
            context.report(
                .valuesOfCorrectType,
                "Variable \"\(variable.name.value)\" must be non-nullable to be used for OneOf Input Object "
                    + "\"\(type.name)\".", [place]
            )
        }
    }

    /// Reports a field an input object type does not define.
    static func reportUnknownField(_ field: ObjectField, inputObject: Int, in context: inout ValidationContext) {
        let type = context.schema.types[inputObject]
        let suggestions = Suggestions.list(field.name.value, type.inputFields.map(\.name))
        context.report(
            .valuesOfCorrectType,
            "Field \"\(field.name.value)\" is not defined by type \"\(type.name)\"."
                + Suggestions.didYouMean(suggestions),
            [context.place(field.range.start)]
        )
    }
}
