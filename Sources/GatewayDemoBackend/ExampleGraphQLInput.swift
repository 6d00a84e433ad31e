import GraphQLLanguage

/// Input coercion for the example backend's executor: a request's variables against their
/// definitions (defaults applied, required ones checked), and a field's arguments against the
/// schema (variables substituted, argument and input-field defaults applied), as the
/// specification's CoerceVariableValues and CoerceArgumentValues describe.
struct ExampleGraphQLInput: Sendable {
    /// An input value that does not fit its type; the message names where.
    struct Failure: Error, Sendable {
        var message: String
    }

    let schema: ExampleGraphQLSchema
    /// The coerced variables; a variable that was not given and has no default is absent.
    let variables: JSONObject

    /// Coerces the variables of a request.
    ///
    /// - Throws: `Failure` for a required variable that is missing or null, or a value of the
    ///   wrong type.
    init(schema: ExampleGraphQLSchema, definitions: [VariableDefinition], given: JSONObject) throws(Failure) {
        self.schema = schema
        var coerced = JSONObject()
        let literals = ExampleGraphQLInput(schema: schema, variables: [:])
        for definition in definitions {
            let name = definition.variable.name.value
            let where_ = "variable \"$\(name)\""
            if let value = given[name] {
                coerced[name] = try literals.coerce(value, to: definition.type, at: where_)
            } else if let fallback = definition.defaultValue, let json = literals.json(from: fallback) {
                coerced[name] = try literals.coerce(json, to: definition.type, at: where_)
            } else if case .nonNull = definition.type {
                throw Failure(message: "Variable \"$\(name)\" of required type \"\(Self.describe(definition.type))\" "
                              + "was not provided.")
            }
        }
        variables = coerced
    }

    private init(schema: ExampleGraphQLSchema, variables: JSONObject) {
        self.schema = schema
        self.variables = variables
    }

    /// The arguments of a field or directive: those written (variables substituted) and the
    /// defaults of those not written.
    ///
    /// - Throws: `Failure` for a required argument that is missing or a value of the wrong type.
    func arguments(_ definitions: [InputValueDefinition], given: [Argument], of owner: String) throws(Failure)
        -> JSONObject
    {
        var coerced = JSONObject()
        for definition in definitions {
            let name = definition.name.value
            let where_ = "argument \"\(name)\" of \(owner)"
            let written = given.last { $0.name.value == name }.flatMap { json(from: $0.value) }
            if let written {
                coerced[name] = try coerce(written, to: definition.type, at: where_)
            } else if let fallback = definition.defaultValue, let json = json(from: fallback) {
                coerced[name] = try coerce(json, to: definition.type, at: where_)
            } else if case .nonNull = definition.type {
                throw Failure(message: "Argument \"\(name)\" of required type \"\(Self.describe(definition.type))\" "
                              + "was not provided for \(owner).")
            }
        }
        return coerced
    }

    /// A written value as JSON, with variables substituted; `nil` for a variable that has no
    /// value (the argument or input field then counts as not written).
    func json(from value: Value) -> JSONValue? {
        switch value {
        case .variable(let variable): return variables[variable.name.value]
        case .int(let int): return Int(int.value).map { .number(JSONNumber($0)) } ?? .string(int.value)
        case .float(let float): return Double(float.value).flatMap(JSONNumber.init).map { .number($0) } ?? .null
        case .string(let string): return .string(string.value)
        case .boolean(let boolean): return .bool(boolean.value)
        case .null: return .null
        case .enum(let enumeration): return .string(enumeration.value)
        case .list(let list): return .array(list.values.map { json(from: $0) ?? .null })
        case .object(let object):
            var members = JSONObject()
            for field in object.fields {
                if let value = json(from: field.value) { members[field.name.value] = value }
            }
            return .object(members)
        }
    }

    /// `value` coerced to `type`: lists wrap single values, `ID` accepts integers, enums and
    /// input objects are checked, input objects get their fields' defaults.
    func coerce(_ value: JSONValue, to type: TypeReference, at place: String) throws(Failure) -> JSONValue {
        switch type {
        case .nonNull(let wrapper):
            guard !value.isNull else {
                throw Failure(message: "Expected a non-null value of type \"\(Self.describe(type))\" for \(place).")
            }
            return try coerce(value, to: wrapper.type, at: place)
        case .list(let list):
            if value.isNull { return .null }
            guard let items = value.arrayValue else { return .array([try coerce(value, to: list.type, at: place)]) }
            var coerced: [JSONValue] = []
            for (index, item) in items.enumerated() {
                coerced.append(try coerce(item, to: list.type, at: "\(place) at index \(index)"))
            }
            return .array(coerced)
        case .named(let named):
            if value.isNull { return .null }
            return try coerce(value, toNamed: named.name.value, at: place)
        }
    }

    private func coerce(_ value: JSONValue, toNamed name: String, at place: String) throws(Failure) -> JSONValue {
        func mismatch() -> Failure {
            Failure(message: "\(name) cannot represent \(value.kindDescription) (\(value.serialized())) for \(place).")
        }
        switch name {
        case "Int":
            guard let number = value.intValue, case .number(let raw) = value, raw.isInteger,
                  Int32(exactly: number) != nil else { throw mismatch() }
            return value
        case "Float":
            guard value.doubleValue != nil else { throw mismatch() }
            return value
        case "String", "DateTime":
            guard value.stringValue != nil else { throw mismatch() }
            return value
        case "Boolean":
            guard value.boolValue != nil else { throw mismatch() }
            return value
        case "ID":
            if value.stringValue != nil { return value }
            guard let number = value.intValue else { throw mismatch() }
            return .string(String(number))
        default:
            break
        }
        if let values = schema.enumValues[name] {
            guard let text = value.stringValue, values.contains(text) else {
                throw Failure(message: "Value \(value.serialized()) does not exist in \"\(name)\" enum for \(place).")
            }
            return value
        }
        if let fields = schema.inputFields[name] {
            guard let given = value.objectValue else { throw mismatch() }
            if let unknown = given.keys.first(where: { key in !fields.contains { $0.name.value == key } }) {
                throw Failure(message: "Field \"\(unknown)\" is not defined by type \"\(name)\" (\(place)).")
            }
            var coerced = JSONObject()
            for field in fields {
                let fieldName = field.name.value
                let where_ = "field \"\(fieldName)\" of \(place)"
                if let member = given[fieldName] {
                    coerced[fieldName] = try coerce(member, to: field.type, at: where_)
                } else if let fallback = field.defaultValue, let json = json(from: fallback) {
                    coerced[fieldName] = try coerce(json, to: field.type, at: where_)
                } else if case .nonNull = field.type {
                    throw Failure(message: "Field \"\(name).\(fieldName)\" of required type "
                                  + "\"\(Self.describe(field.type))\" was not provided (\(place)).")
                }
            }
            return .object(coerced)
        }
        return value  // Custom scalars (Milliseconds, Upload) pass through as sent.
    }

    /// `[ID!]!`.
    static func describe(_ type: TypeReference) -> String {
        switch type {
        case .named(let named): named.name.value
        case .list(let list): "[\(describe(list.type))]"
        case .nonNull(let wrapper): describe(wrapper.type) + "!"
        }
    }
}
