/// Field Selections — https://spec.graphql.org/October2021/#sec-Field-Selections
///
/// Every selected field is defined on the type it is selected on. The message suggests, as
/// graphql-js's does, the types that do have the field (for an interface or union), or else
/// fields with a similar name.
enum FieldsOnCorrectTypeRule {
    static func report(_ field: Field, parentType: Int, in context: inout ValidationContext) {
        let schema = context.schema
        let name = field.name.value
        var suggestion = Suggestions.didYouMean(
            suggestedTypeNames(schema, parentType, name), subMessage: "to use an inline fragment on"
        )
        if suggestion.isEmpty {
            suggestion = Suggestions.didYouMean(suggestedFieldNames(schema, parentType, name))
        }
        context.report(
            .fieldsOnCorrectType,
            "Cannot query field \"\(name)\" on type \"\(schema.types[parentType].name)\"." + suggestion,
            [context.place(field.range.start)]
        )
    }

    /// For an abstract type: the possible types and their interfaces that define the field, most
    /// used first, interfaces before the types implementing them, then by name.
    static func suggestedTypeNames(_ schema: Schema, _ type: Int, _ fieldName: String) -> [String] {
        guard schema.kind(type).isAbstract else { return [] }
        var suggested: [Int] = []
        var usageCount: [Int: Int] = [:]
        for possible in schema.possibleTypes(of: type) where schema.types[possible].field(named: fieldName) != nil {
            if usageCount[possible] == nil { suggested.append(possible) }
            usageCount[possible] = 1
            for interface in schema.types[possible].interfaceIndices
            where schema.types[interface].field(named: fieldName) != nil {
                if usageCount[interface] == nil { suggested.append(interface) }
                usageCount[interface, default: 0] += 1
            }
        }
        // graphql-js's comparator is not a total order, so the result depends on the algorithm:
        // sort as JavaScript engines and Python do for short arrays (a run, then binary insertion).
        let sorted = Suggestions.timSorted(suggested) { compare(schema, $0, $1, usageCount) < 0 }
        return sorted.map { schema.types[$0].name }
    }

    private static func compare(_ schema: Schema, _ a: Int, _ b: Int, _ usageCount: [Int: Int]) -> Int {
        let difference = (usageCount[b] ?? 0) - (usageCount[a] ?? 0)
        if difference != 0 { return difference }
        if schema.kind(a) == .interface, schema.isSubType(a, b) { return -1 }
        if schema.kind(b) == .interface, schema.isSubType(b, a) { return 1 }
        return Suggestions.naturalCompare(schema.types[a].name, schema.types[b].name)
    }

    /// For an object or interface type: its fields with names close to `fieldName`.
    static func suggestedFieldNames(_ schema: Schema, _ type: Int, _ fieldName: String) -> [String] {
        let kind = schema.kind(type)
        guard kind == .object || kind == .interface else { return [] }
        return Suggestions.list(fieldName, schema.types[type].fields.map(\.name))
    }
}
