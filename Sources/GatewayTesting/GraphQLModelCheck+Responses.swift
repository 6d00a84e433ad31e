import GraphQLLanguage

extension GraphQLModelCheck {
    /// What one synthesized response changes in the base response, where every field is set, lists
    /// hold two items, and each enum and abstract type takes its first value or object type.
    enum Change: Sendable, Hashable {
        /// The base response itself.
        case none
        /// The value at a nullable level of a field is `null`.
        case null(field: Int, level: Int)
        /// The list at a level of a field is empty.
        case empty(field: Int, level: Int)
        /// A field that `@skip` or `@include` may leave out is left out.
        case absent(field: Int)
        /// An enum field holds its value at this index.
        case enumValue(field: Int, index: Int)
        /// An interface or union field holds its object type at this case index.
        case typeCase(field: Int, index: Int)

        /// The field the change concerns; `nil` for the base response.
        var field: Int? {
            switch self {
            case .none: nil
            case .null(let field, _), .empty(let field, _), .absent(let field), .enumValue(let field, _),
                 .typeCase(let field, _): field
            }
        }
    }

    /// One response to synthesize: a change, and the object type each abstract field on the way to
    /// it takes (fields not named take their first).
    struct Variation: Sendable {
        var change: Change
        var cases: [Int: Int]
    }

    /// How many list levels along a path hold two items; deeper lists hold one, so that nested
    /// lists cannot make a response grow exponentially.
    static let twoItemListLevels = 3
    /// The most responses a check decodes.
    static let maximumResponses = 10_000

    /// The base response, then one change at a time: each nullable level once `null`, each list
    /// once empty, each conditional field once absent, each further enum value and object type.
    /// Changes to a field come before changes to the fields inside it.
    /// - Returns: At most `limit` variations, and whether there were more.
    func variations(upTo limit: Int) -> (variations: [Variation], cut: Bool) {
        var result = [Variation(change: .none, cases: [:])]
        let fields = selection.fields
        for index in fields.indices.dropFirst() {
            guard result.count <= limit else { return (Array(result.prefix(limit)), true) }
            let field = fields[index]
            let route = self.route(to: index)
            for caseIndex in field.cases.indices.dropFirst() where result.count <= limit {
                var cases = route
                cases[index] = caseIndex
                result.append(Variation(change: .typeCase(field: index, index: caseIndex), cases: cases))
            }
            for (level, shape) in field.levels.enumerated() {
                if shape.isNullable {
                    result.append(Variation(change: .null(field: index, level: level), cases: route))
                }
                if shape.isList {
                    result.append(Variation(change: .empty(field: index, level: level), cases: route))
                }
            }
            if field.condition != nil { result.append(Variation(change: .absent(field: index), cases: route)) }
            if case .enumeration(let values) = field.leaf {
                for value in values.indices.dropFirst() where result.count <= limit {
                    result.append(Variation(change: .enumValue(field: index, index: value), cases: route))
                }
            }
        }
        return result.count > limit ? (Array(result.prefix(limit)), true) : (result, false)
    }

    /// The object types the abstract fields above `field` must take for a response to hold it.
    func route(to field: Int) -> [Int: Int] {
        var cases: [Int: Int] = [:]
        var current = selection.fields[field].parent
        while let (parent, caseIndex) = current {
            if caseIndex != 0 { cases[parent] = caseIndex }
            current = selection.fields[parent].parent
        }
        return cases
    }

    /// The `data` object of a variation.
    func response(_ variation: Variation) -> JSONValue {
        value(of: 0, level: 0, twoItemLevels: Self.twoItemListLevels, variation)
    }

    private func value(of index: Int, level: Int, twoItemLevels: Int, _ variation: Variation) -> JSONValue {
        let field = selection.fields[index]
        let shape = field.levels[level]
        if variation.change == .null(field: index, level: level) { return .null }
        if shape.isList {
            if variation.change == .empty(field: index, level: level) { return .array([]) }
            let count = twoItemLevels > 0 ? 2 : 1
            let item = value(of: index, level: level + 1, twoItemLevels: twoItemLevels - 1, variation)
            return .array(Array(repeating: item, count: count))
        }
        switch field.leaf {
        case .enumeration(let values):
            var chosen = 0
            if case .enumValue(index, let value) = variation.change { chosen = value }
            return values.indices.contains(chosen) ? .string(values[chosen]) : .null
        case .scalar(let name):
            return scalarValue(name)
        case nil:
            let caseIndex = variation.cases[index] ?? 0
            guard field.cases.indices.contains(caseIndex) else { return .object([:]) }
            let chosen = field.cases[caseIndex]
            var members: [JSONObject.Member] = []
            members.reserveCapacity(chosen.fields.count)
            for child in chosen.fields where variation.change != .absent(field: child) {
                let member = selection.fields[child]
                let value = member.name == "__typename"
                    ? JSONValue.string(chosen.typeName)
                    : value(of: child, level: 0, twoItemLevels: twoItemLevels, variation)
                members.append(JSONObject.Member(key: member.responseKey, value: value))
            }
            return .object(JSONObject(members))
        }
    }

    /// The value every field of the scalar `name` holds: a representative of its type, or the
    /// value given for a custom scalar.
    func scalarValue(_ name: String) -> JSONValue {
        if let given = scalars[name] { return given }
        switch name {
        case "String": return "text"
        case "ID": return "1"
        case "Int": return 1
        case "Float": return 1.5
        case "Boolean": return true
        default:
            // A date-time scalar that points at RFC 3339 or ISO 8601 gets one; any other a string.
            let specification = schema.type(named: name)?.specifiedByURL?.lowercased() ?? ""
            if specification.contains("3339") || specification.contains("8601") { return "2024-05-01T12:00:00Z" }
            return .string(name)
        }
    }

    /// The change in words, for problems that are not explained by one field.
    func describe(_ change: Change, operation: String) -> String {
        guard let index = change.field else { return "the base response, where every field is set" }
        let field = selection.fields[index]
        let place = path(to: index, operation: operation)
        switch change {
        case .none: return ""
        case .null(_, let level):
            return level == 0 ? "the response where \(place) is null" : "the response where items of \(place) are null"
        case .empty: return "the response where \(place) is an empty list"
        case .absent: return "the response that leaves out \(place)"
        case .enumValue(_, let value):
            if case .enumeration(let values) = field.leaf, values.indices.contains(value) {
                return "the response where \(place) is \(values[value])"
            }
            return "the response with another value at \(place)"
        case .typeCase(_, let value):
            let typeName = field.cases.indices.contains(value) ? field.cases[value].typeName : "another type"
            return "the response where \(place) is a \(typeName)"
        }
    }

    /// The response keys from the root to `field`, after the operation's name: `GetTrack.track.title`.
    func path(to field: Int, operation: String) -> String {
        var keys: [String] = []
        var current: Int? = field
        while let index = current, index != 0 {
            keys.append(selection.fields[index].responseKey)
            current = selection.fields[index].parent?.field
        }
        return ([operation] + keys.reversed()).joined(separator: ".")
    }
}
